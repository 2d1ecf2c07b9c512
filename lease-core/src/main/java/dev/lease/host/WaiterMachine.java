/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.lease.host;

import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;

/**
 * One queued take, from the answer that queued it to the one that ends its wait: at each
 * event (an answer, a wake-up or a timer, a poll) it says what the waiter does next (Host
 * semantics: waking). It is the one place every host's waiting is decided; a
 * {@link BlockingWaiter} drives it on the caller's thread, a {@link ScheduledWaiter} on
 * the host's scheduler, and each host supplies only its store's questions
 * ({@link WaiterStore}). Single-threaded: its driver calls it from one thread at a time.
 * <p>
 * Every instant is a {@link System#nanoTime()} reading. An answer carries instants on the
 * host's clock; they are placed on the timer from the reading taken when the answer is
 * in, so that a waiter asks no earlier than the host has passed an instant, and
 * {@link #LATE_NANOS} after it. The waiter sleeps until a wake-up names it (the key was
 * handed to it, or it is next in line and asks when the standing grant ends, since a
 * handoff by expiry is written by nobody) or, at the latest, until just past its bound,
 * when it asks once more "withdraw me, or tell me I was granted". The key's delegate in
 * this JVM also asks at the earlier of the standing grant's end and half its own
 * duration, so that a lost message costs latency only; where the host polls, the delegate
 * polls first, and between its questions while the host hears no notifications, with a
 * backoff that restarts when a poll woke somebody.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class WaiterMachine {

	/**
	 * How long after an instant on the host's clock a waiter asks, so as not to ask
	 * before the host has passed it.
	 */
	public static final long LATE_NANOS = 1_000_000;

	static final long FIRST_BACKOFF_NANOS = 2_000_000;

	static final long LONGEST_BACKOFF_NANOS = 100_000_000;

	// A waiter made the delegate, most often when the last one was handed the key: the
	// key's polling goes on from here rather than from the first backoff.
	static final long TAKEN_OVER_BACKOFF_NANOS = 25_000_000;

	private final Wakeups.Signal<?> signal;

	private final long durationNanos;

	private final @Nullable BooleanSupplier polling;

	private long asked;

	private long boundAt;

	private long standingAt;

	private long polled;

	private long backoff = FIRST_BACKOFF_NANOS;

	private boolean delegate;

	private @Nullable Ask afterPoll;

	/**
	 * Create the machine of one waiter.
	 * @param signal the waiter's wake-ups, registered before its first question
	 * @param duration the term it asked for
	 * @param polling whether the key's delegate polls between its questions now, such as
	 * while the host hears no notifications; {@code null} for a host that never polls
	 */
	public WaiterMachine(Wakeups.Signal<?> signal, Duration duration, @Nullable BooleanSupplier polling) {
		this.signal = signal;
		this.durationNanos = duration.toNanos();
		this.polling = polling;
	}

	/**
	 * The answer that queued the waiter.
	 * @param queued the answer
	 * @param nanoTime the {@link System#nanoTime()} when it was in
	 * @return what to do next
	 */
	public Action entered(TakeAnswer.Queued queued, long nanoTime) {
		note(queued, nanoTime);
		this.delegate = this.signal.delegate();
		return woken(nanoTime);
	}

	/**
	 * Woken, by a wake-up or by the end of a sleep.
	 * @param now the {@link System#nanoTime()}
	 * @return what to do next
	 */
	public Action woken(long now) {
		Instant handed = this.signal.handed();
		if (handed != null) {
			return new Take(handed, true);
		}
		boolean delegate = this.signal.delegate();
		if (delegate && !this.delegate) {
			this.backoff = TAKEN_OVER_BACKOFF_NANOS;
		}
		this.delegate = delegate;
		boolean askNow = this.signal.takeAskNow();
		boolean atBound = now > this.boundAt;
		// The delegate told to ask (its host has just started to hear notifications)
		// asks for the key's other waiters too.
		boolean reask = delegate && (askNow || now >= reaskAt());
		if (askNow || atBound || now >= nextAskAt() || reask) {
			Ask ask = new Ask(atBound, answerBy());
			if (reask && this.polling != null) {
				// A wake-up may have been lost: wake whom the committed handoffs name.
				this.afterPoll = ask;
				return poll(now);
			}
			return ask;
		}
		if (delegate && pollingNow() && now >= this.polled + this.backoff) {
			return poll(now);
		}
		return new Sleep(wakeAt());
	}

	// The backoff counts from when a poll begins, as a poll's own time would otherwise
	// delay every later one and the handoff it would find.
	private Poll poll(long now) {
		this.polled = now;
		return new Poll(answerBy());
	}

	/**
	 * The answer to a question.
	 * @param answer granted, refused, or still queued
	 * @param nanoTime the {@link System#nanoTime()} when it was in
	 * @return what to do next
	 */
	public Action answered(TakeAnswer answer, long nanoTime) {
		if (answer instanceof TakeAnswer.Granted granted) {
			return new Take(Micros.toInstant(granted.expiresAt()), false);
		}
		if (answer instanceof TakeAnswer.Queued queued) {
			note(queued, nanoTime);
			return woken(nanoTime);
		}
		return new Refuse();
	}

	/**
	 * A poll done, or failed, which costs latency only.
	 * @param wokeSomeone whether the poll woke a waiter, when the next poll comes soon
	 * @param nanoTime the {@link System#nanoTime()} when it was done
	 * @return what to do next
	 */
	public Action polled(boolean wokeSomeone, long nanoTime) {
		this.backoff = wokeSomeone ? FIRST_BACKOFF_NANOS : Math.min(this.backoff * 2, LONGEST_BACKOFF_NANOS);
		Ask ask = this.afterPoll;
		this.afterPoll = null;
		return (ask != null) ? ask : woken(nanoTime);
	}

	/**
	 * Return when a question must have been answered (Host: silence).
	 * @return the instant as a {@link System#nanoTime()} reading
	 */
	public long answerBy() {
		return Withdrawals.answerBy(this.boundAt);
	}

	/**
	 * Return until when a withdrawal is needed: a grant handed to the waiter before its
	 * bound stands for its duration.
	 * @return the instant as a {@link System#nanoTime()} reading
	 */
	public long neededUntil() {
		return this.boundAt + this.durationNanos;
	}

	private void note(TakeAnswer.Queued queued, long nanoTime) {
		this.asked = nanoTime;
		this.polled = nanoTime;
		this.boundAt = nanoTime + (queued.bound() - queued.now()) * 1000;
		this.standingAt = nanoTime + Math.max(0, queued.grantExpiresAt() - queued.now()) * 1000;
		this.signal.answered(queued.next(), this.standingAt, nanoTime);
	}

	// Sleep to just past the bound, or to the standing grant's end when next in line, or
	// (the delegate) to the re-ask or the next poll.
	private long wakeAt() {
		long wakeAt = Math.min(this.boundAt + LATE_NANOS, nextAskAt());
		if (this.delegate) {
			wakeAt = Math.min(wakeAt, reaskAt());
			if (pollingNow()) {
				wakeAt = Math.min(wakeAt, this.polled + this.backoff);
			}
		}
		return wakeAt;
	}

	// The delegate re-asks no later than the standing grant's end or half its own
	// duration (Host semantics).
	private long reaskAt() {
		return Math.min(this.standingAt, this.asked + this.durationNanos / 2) + LATE_NANOS;
	}

	// When the waiter next in line asks, or never.
	private long nextAskAt() {
		long ends = this.signal.standingEndsAt();
		return (ends != Wakeups.Signal.NOT_NEXT) ? ends + LATE_NANOS : Long.MAX_VALUE;
	}

	private boolean pollingNow() {
		return this.polling != null && this.polling.getAsBoolean();
	}

	/**
	 * What a waiter does next.
	 */
	public sealed interface Action permits Sleep, Ask, Poll, Take, Refuse {

	}

	/**
	 * Sleep until woken or the instant.
	 *
	 * @param until the instant as a {@link System#nanoTime()} reading
	 */
	public record Sleep(long until) implements Action {

	}

	/**
	 * Ask the store where the waiter stands.
	 *
	 * @param atBound whether the bound has passed: then the question is the last,
	 * "withdraw me, or tell me I was granted"
	 * @param answerBy when it must have been answered, as a {@link System#nanoTime()}
	 * reading
	 */
	public record Ask(boolean atBound, long answerBy) implements Action {

	}

	/**
	 * Poll the key's committed handoffs, waking the waiters they name, and tell the head
	 * of the queue when the standing grant ends.
	 *
	 * @param answerBy when it must have been answered
	 */
	public record Poll(long answerBy) implements Action {

	}

	/**
	 * The key is the waiter's.
	 *
	 * @param expiresAt the grant's instant on the host's clock
	 * @param handed whether a wake-up named the waiter, so that no question took the
	 * grant up at the store
	 */
	public record Take(Instant expiresAt, boolean handed) implements Action {

	}

	/**
	 * The key is not the waiter's: it was withdrawn at its bound.
	 */
	public record Refuse() implements Action {

	}

}
