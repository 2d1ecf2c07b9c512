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

package dev.lease.host.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.Unavailable;
import dev.lease.host.Wakeups;
import dev.lease.host.Withdrawals;
import dev.lease.host.redis.RedisScriptAnswer.Granted;
import dev.lease.host.redis.RedisScriptAnswer.Queued;
import dev.lease.host.redis.RedisScriptAnswer.TakeAnswer;
import dev.lease.host.redis.RedisScriptAnswer.WaiterAnswer;

/**
 * One take of a {@link LettuceAsyncLeaseHost}: the waiting protocol of
 * {@link RedisLeaseWaiting}, step by step instead of on a sleeping thread. Each step runs
 * on the host's timer thread, which alone reads and writes the fields below: when an
 * answer comes in, when a wake-up calls its signal, when its timer fires. A wake-up while
 * a question is out is read once the answer is in.
 * <p>
 * The future completed by anyone but this take (cancelled) before it answered withdraws
 * the waiter, a grant handed to it at that moment given back; a grant the future can no
 * longer take is released. The withdrawal is written at once, on the cancelling thread,
 * to the factory's shared connection (Spring Data Redis's default) that the take's own
 * script went out on: Redis runs it after that script and before any question the caller
 * asks once {@code cancel} has returned, however late this take's thread reads its
 * answers.
 *
 * @author Lease contributors
 */
final class LettuceAsyncTake {

	// Asked this long after an instant, so as not to ask before Redis has passed it.
	private static final long LATE_NANOS = 1000;

	private final LettuceAsyncLeaseHost host;

	private final LeaseKey key;

	private final LeaseHolder holder;

	private final Duration duration;

	private final byte[] redisKey;

	private final String wakeKey;

	private final byte[] ticket;

	private final CompletableFuture<TakeResult> answer = new CompletableFuture<>();

	private Wakeups.@Nullable Signal<String> signal;

	// Null until the take's first answer queued it.
	private @Nullable Queued queued;

	// The System.nanoTime() of the answer in queued.
	private long asked;

	private boolean asking;

	private boolean done;

	// Set by this take before it completes the future, so that a completion by anyone
	// else (read on their thread) is told apart.
	private volatile boolean answering;

	private @Nullable ScheduledFuture<?> wakeUp;

	LettuceAsyncTake(LettuceAsyncLeaseHost host, LeaseKey key, LeaseHolder holder, Duration duration) {
		this.host = host;
		this.key = key;
		this.holder = holder;
		this.duration = duration;
		this.redisKey = host.store().redisKey(key);
		this.wakeKey = new String(this.redisKey, StandardCharsets.US_ASCII);
		this.ticket = RedisLeaseWaiting.ticket();
	}

	CompletableFuture<TakeResult> answer() {
		return this.answer;
	}

	// Registered before asking, as a blocking waiter is; the take is sent from the
	// caller's thread, so that takes arrive in the order they were made.
	void start() {
		Wakeups.Signal<String> registered = this.host.wakeups()
			.register(this.wakeKey, new String(this.ticket, StandardCharsets.US_ASCII));
		this.signal = registered;
		this.asking = true;
		registered.onWake(() -> this.host.step(this, this::decide));
		this.answer.whenComplete((result, failure) -> {
			if (!this.answering) {
				withdraw(1);
			}
			this.host.step(this, this::abandon);
		});
		this.host
			.runWaiter("take", this.redisKey, RedisLeaseStore.takeArguments(this.holder, this.duration, this.ticket))
			.whenComplete((answered, failure) -> this.host.step(this, () -> entered(answered, failure)));
	}

	private void entered(@Nullable List<Object> answered, @Nullable Throwable failure) {
		this.asking = false;
		if (failure != null) {
			finish(null, failure);
			return;
		}
		TakeAnswer answer;
		try {
			answer = RedisScriptAnswer.take(answered);
		}
		catch (RuntimeException ex) {
			finish(null, ex);
			return;
		}
		if (answer instanceof Granted granted) {
			granted(granted.instant(), false);
		}
		else if (answer instanceof Queued first) {
			answered(first);
			if (this.done) {
				// cancelled while the take was out
				withdraw(1);
				return;
			}
			decide();
		}
		else {
			finish(null, new ReentrantTakeException(this.key, this.holder));
		}
	}

	// What the blocking waiter does each time it wakes: take a grant a wake-up named,
	// ask when it must, or sleep to its next instant.
	private void decide() {
		Wakeups.Signal<String> signal = this.signal;
		Queued queued = this.queued;
		if (this.done || this.asking || signal == null || queued == null) {
			return;
		}
		Instant handed = signal.handed();
		if (handed != null) {
			granted(handed, true);
			return;
		}
		long now = System.nanoTime();
		long boundAt = boundAt();
		long reaskAt = this.asked + Math.min(queued.standingRemaining(), halfDuration()) * 1000;
		boolean atBound = now > boundAt;
		if (!signal.takeAskNow() && !atBound && now < nextAskAt(signal) && !(signal.delegate() && now >= reaskAt)) {
			long wakeAt = Math.min(boundAt + LATE_NANOS, nextAskAt(signal));
			if (signal.delegate()) {
				wakeAt = Math.min(wakeAt, reaskAt);
			}
			sleepUntil(wakeAt);
			return;
		}
		this.asking = true;
		byte[][] question = atBound ? this.host.store().settleArguments(this.ticket, false)
				: this.host.store().askArguments(this.ticket);
		this.host.runWaiter("take", this.redisKey, question, Withdrawals.answerBy(boundAt))
			.whenComplete((answered, failure) -> this.host.step(this, () -> asked(answered, failure, atBound, now)));
	}

	private void asked(@Nullable List<Object> answered, @Nullable Throwable failure, boolean settled, long now) {
		this.asking = false;
		WaiterAnswer answer = null;
		if (failure == null) {
			try {
				answer = RedisScriptAnswer.waiter(answered);
			}
			catch (RuntimeException ex) {
				failure = ex;
			}
		}
		if (this.done) {
			// Cancelled while asking: the withdrawal sent then gives back a grant this
			// question saw handed, unless this question was the one taking it up.
			if (settled && answer instanceof Granted) {
				release();
			}
			return;
		}
		if (answer == null) {
			// A caller that gets no answer must not be handed the key later.
			withdraw(1);
			finish(null, failure);
			return;
		}
		if (answer instanceof Granted granted) {
			granted(granted.instant(), true);
			return;
		}
		if (!(answer instanceof Queued again)) {
			finish(new Unavailable(), null);
			return;
		}
		this.asked = now;
		answered(again);
		if (again.handed() != null) {
			// another waiter here may have missed its message
			this.host.wakeups().wake(this.wakeKey, List.of(again.handed()));
		}
		decide();
	}

	private void answered(Queued answer) {
		if (this.queued == null) {
			this.asked = System.nanoTime();
		}
		this.queued = answer;
		Wakeups.Signal<String> signal = this.signal;
		if (signal != null) {
			signal.answered(answer.next(),
					RedisLeaseWaiting.onTimer(this.asked + Math.max(0, answer.standingRemaining()) * 1000),
					RedisLeaseWaiting.onTimer(this.asked));
		}
	}

	private void granted(Instant expiresAt, boolean handed) {
		Lease lease = new Lease(this.key, this.holder, expiresAt);
		RedisLeaseStore store = this.host.store();
		if (!store.confirmBlocks()) {
			finish(new Taken(lease), null);
			return;
		}
		// Rare: the grant is given back or waits for replicas, on a thread of its own.
		byte[] handedTicket = handed ? this.ticket : null;
		CompletableFuture.supplyAsync(() -> store.confirm(this.redisKey, lease, handedTicket))
			.whenComplete((confirmed, failure) -> this.host.step(this,
					() -> finish((confirmed != null) ? new Taken(confirmed) : null, failure)));
	}

	// The host's answer; a grant the future no longer takes is released.
	private void finish(@Nullable TakeResult result, @Nullable Throwable failure) {
		leave();
		this.answering = true;
		boolean completed = (result != null) ? this.answer.complete(result)
				: this.answer.completeExceptionally(unwrap(failure));
		if (!completed && result instanceof Taken) {
			release();
		}
	}

	private static Throwable unwrap(@Nullable Throwable failure) {
		if (failure instanceof CompletionException && failure.getCause() != null) {
			return failure.getCause();
		}
		return (failure != null) ? failure : new LeaseHostException("The take answered nothing");
	}

	// The future was completed by the caller (cancelled) before the host answered; the
	// withdrawal is out. A take whose script is still out is withdrawn again by
	// entered(), in case that script was sent again after the withdrawal (a slot that
	// moved), and a grant it answers is given back.
	private void abandon() {
		if (this.done) {
			return;
		}
		leave();
	}

	void closed(LeaseHostException ex) {
		this.answering = true;
		this.answer.completeExceptionally(ex);
	}

	private void leave() {
		this.done = true;
		cancelWakeUp();
		Wakeups.Signal<String> signal = this.signal;
		if (signal != null) {
			signal.onWake(null);
			this.host.wakeups().unregister(this.wakeKey, signal);
		}
	}

	// Withdraw the waiter, a grant handed to it at that moment given back; tried again
	// while it is needed (until a grant handed before the bound would have ended), as a
	// blocking waiter's withdrawal is. Reads only final fields, as it is sent from the
	// cancelling thread too; a failure is read on this take's thread, which knows the
	// bound.
	private void withdraw(int attempt) {
		this.host.runWaiter("take", this.redisKey, this.host.store().settleArguments(this.ticket, true))
			.whenComplete((answered, failure) -> {
				if (failure != null) {
					this.host.step(this, () -> withdrawAgain(attempt));
				}
			});
	}

	private void withdrawAgain(int attempt) {
		if (System.nanoTime() - (boundAt() + this.duration.toNanos()) < 0) {
			this.host.timer()
				.schedule(() -> withdraw(attempt + 1), Math.min(50L << Math.min(attempt - 1, 10), 1_000L),
						TimeUnit.MILLISECONDS);
		}
	}

	// Give back a grant; this JVM's waiter it goes to wakes at once, as at any release
	// made here.
	private void release() {
		this.host.release(this.redisKey, this.holder);
	}

	private void sleepUntil(long wakeAt) {
		cancelWakeUp();
		this.wakeUp = this.host.timer()
			.schedule(this::decide, Math.max(0, wakeAt - System.nanoTime()), TimeUnit.NANOSECONDS);
	}

	private void cancelWakeUp() {
		ScheduledFuture<?> wakeUp = this.wakeUp;
		if (wakeUp != null) {
			wakeUp.cancel(false);
			this.wakeUp = null;
		}
	}

	private long boundAt() {
		Queued queued = this.queued;
		return (queued != null) ? this.asked + queued.toBound() * 1000 : Long.MAX_VALUE;
	}

	private long halfDuration() {
		return Math.max(1, this.duration.toNanos() / 2000);
	}

	// The System.nanoTime() at which this waiter, next in line, asks; or never.
	private static long nextAskAt(Wakeups.Signal<String> signal) {
		Instant ends = signal.standingExpiresAt();
		return (ends != null) ? RedisLeaseWaiting.nanoTime(ends) + LATE_NANOS : Long.MAX_VALUE;
	}

}
