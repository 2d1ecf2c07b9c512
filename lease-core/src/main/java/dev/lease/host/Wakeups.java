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

import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The threads of this JVM waiting at a take, by key and by the name the store gives each
 * waiter, and the calls that wake them. A waiter registers under its name before it asks
 * a question whose answer it may sleep on, so that no wake-up between the answer and the
 * sleep is lost; it then sleeps on its {@link Signal} for no longer than it may (Host:
 * waking: expiry is no event and a message can be lost), and unregisters when it leaves.
 * <p>
 * So that a hot key costs the same at any queue length, a wake-up reaches only the
 * waiters it names: the one the key was handed to, which can answer {@code Taken} without
 * asking again, and the one {@linkplain #nextInLine next in line}, which asks when the
 * standing grant ends, since a handoff by expiry is written by nobody. One waiter per
 * key, the {@linkplain Signal#delegate() delegate} (the earliest registered still
 * waiting), re-asks for all the others, at a rate that does not grow with their number;
 * from what it learns it wakes the ones named. A wake-up that names nobody (a message of
 * unknown form, or one that may have been missed) wakes every waiter of its key once, and
 * each asks.
 *
 * @param <K> how the host names a key, such as {@link dev.lease.LeaseKey} or its encoded
 * store key
 * @param <W> how the host names a waiter, such as its row or ticket
 * @author Lease contributors
 * @since 0.1.0
 */
public final class Wakeups<K, W> {

	private final ConcurrentHashMap<K, KeyWaiters<W>> waiting = new ConcurrentHashMap<>();

	private final HostTimer timer = new HostTimer();

	/**
	 * Register a waiter of the given key under the name the store will give it.
	 * @param key the key
	 * @param waiter the waiter's name
	 * @return the waiter's signal, to {@link #unregister(Object, Signal) unregister} when
	 * it leaves
	 */
	public Signal<W> register(K key, W waiter) {
		Signal<W> signal = new Signal<>(waiter);
		this.waiting.compute(key, (k, waiters) -> {
			KeyWaiters<W> registered = (waiters != null) ? waiters : new KeyWaiters<>();
			registered.add(signal);
			return registered;
		});
		return signal;
	}

	/**
	 * Unregister a waiter of the given key; when it was the delegate, the next waiter
	 * becomes the delegate and is woken to take up the part.
	 * @param key the key
	 * @param signal the signal {@link #register(Object, Object)} answered
	 */
	public void unregister(K key, Signal<W> signal) {
		this.waiting.computeIfPresent(key, (k, waiters) -> waiters.remove(signal) ? null : waiters);
	}

	/**
	 * Wake the waiters the key was handed to; when the wake-up names nobody, wake every
	 * waiter of the key, and each asks once.
	 * @param key the key
	 * @param handoffs the waiters the key was handed to, as committed by the store; empty
	 * when not known
	 * @return how many waiters were woken: a poller that finds only grants of waiters
	 * gone or elsewhere need not poll sooner
	 */
	public int wake(K key, List<Handoff<W>> handoffs) {
		KeyWaiters<W> waiters = this.waiting.get(key);
		if (waiters == null) {
			return 0;
		}
		if (handoffs.isEmpty()) {
			List<Signal<W>> all = waiters.all();
			all.forEach(Signal::askNow);
			return all.size();
		}
		int woken = 0;
		for (Handoff<W> handoff : handoffs) {
			Signal<W> signal = waiters.get(handoff.waiter());
			if (signal != null && signal.handed == null) {
				signal.handed = handoff.expiresAt();
				signal.wake();
				woken++;
			}
		}
		return woken;
	}

	/**
	 * Tell the waiter now at the head of the key's queue when the standing grant ends, so
	 * that it asks then.
	 * @param key the key
	 * @param waiter the waiter at the head of the queue
	 * @param standingExpiresAt the standing grant's instant on the host's clock, placed
	 * on this JVM's timer by the host's clock as last {@linkplain #timer() answered}
	 */
	public void nextInLine(K key, W waiter, Instant standingExpiresAt) {
		nextInLineAt(key, waiter, this.timer.nanoTime(Micros.of(standingExpiresAt)));
	}

	/**
	 * Tell the waiter now at the head of the key's queue when the standing grant ends.
	 * @param key the key
	 * @param waiter the waiter at the head of the queue
	 * @param standingEndsAt the standing grant's end as a {@link System#nanoTime()}
	 * reading
	 */
	public void nextInLineAt(K key, W waiter, long standingEndsAt) {
		KeyWaiters<W> waiters = this.waiting.get(key);
		Signal<W> signal = (waiters != null) ? waiters.get(waiter) : null;
		if (signal != null) {
			signal.standingEndsAt = standingEndsAt;
			signal.wake();
		}
	}

	/**
	 * Return the host's clock on this JVM's timer, which a host whose answers carry its
	 * clock's readings feeds.
	 * @return the host's timer
	 */
	public HostTimer timer() {
		return this.timer;
	}

	/**
	 * Wake every waiter, each to ask once, such as when the host's notifications may have
	 * been missed.
	 */
	public void wakeAll() {
		this.waiting.values().forEach((waiters) -> waiters.all().forEach(Signal::askNow));
	}

	/**
	 * Make the delegate of every key ask once, such as when the host starts to hear its
	 * notifications: one question per key finds what was sent while nobody heard and
	 * wakes whom it names, where every waiter asking would ask as many. The other waiters
	 * sleep on.
	 */
	public void wakeDelegatesToAsk() {
		this.waiting.values().forEach(KeyWaiters::askDelegate);
	}

	/**
	 * Wake the delegate of every key without making it ask, such as when the host's
	 * notifications stopped, so that it finds out on its own schedule (polling, where the
	 * host polls) what they would have said. The other waiters sleep on.
	 */
	public void wakeDelegates() {
		this.waiting.values().forEach(KeyWaiters::wakeDelegate);
	}

	/**
	 * Return whether a waiter of the key waits in this JVM: then the key's queue is most
	 * likely not empty.
	 * @param key the key
	 * @return whether a waiter of the key is registered
	 */
	public boolean hasWaiters(K key) {
		return this.waiting.containsKey(key);
	}

	/**
	 * Return whether the named waiter of the key waits in this JVM, where a wake-up that
	 * names it reaches it without a message.
	 * @param key the key
	 * @param waiter the waiter's name
	 * @return whether the waiter is registered
	 */
	public boolean waitsHere(K key, W waiter) {
		KeyWaiters<W> waiters = this.waiting.get(key);
		return waiters != null && waiters.get(waiter) != null;
	}

	/**
	 * Return whether no waiter is registered.
	 * @return whether no waiter is registered
	 */
	public boolean isEmpty() {
		return this.waiting.isEmpty();
	}

	/**
	 * One waiter's wake-up: at most one is pending, consumed by the next wait.
	 *
	 * @param <W> how the host names a waiter
	 */
	public static final class Signal<W> {

		/**
		 * The {@link #standingEndsAt()} of a waiter not known to be next in line.
		 */
		public static final long NOT_NEXT = Long.MAX_VALUE;

		final W waiter;

		private final Semaphore permit = new Semaphore(0);

		private volatile @Nullable Instant handed;

		private volatile long standingEndsAt = NOT_NEXT;

		private volatile boolean askNow;

		volatile boolean delegate;

		private volatile @Nullable Runnable onWake;

		private Signal(W waiter) {
			this.waiter = waiter;
		}

		/**
		 * Return the waiter's name.
		 * @return the name it registered under
		 */
		public W waiter() {
			return this.waiter;
		}

		void askNow() {
			this.askNow = true;
			wake();
		}

		void wake() {
			if (this.permit.availablePermits() == 0) {
				this.permit.release();
			}
			Runnable onWake = this.onWake;
			if (onWake != null) {
				onWake.run();
			}
		}

		/**
		 * Be called at every wake-up, instead of sleeping in {@link #await(long)}: a
		 * waiter that holds no thread re-reads its signal ({@link #handed()},
		 * {@link #takeAskNow()}, {@link #delegate()}, {@link #standingEndsAt()}) when
		 * called. The call runs on the thread that wakes the waiter (a subscription, an
		 * I/O thread, a releasing caller), so it must not block; a wake-up before it is
		 * set is kept in the signal, to be read at once.
		 * @param onWake the call, or {@code null} for none
		 */
		public void onWake(@Nullable Runnable onWake) {
			this.onWake = onWake;
		}

		/**
		 * Return the {@code expiresAt} of a grant that a wake-up said the store handed to
		 * this waiter.
		 * @return the grant's instant, or {@code null} when no wake-up named the waiter
		 */
		public @Nullable Instant handed() {
			return this.handed;
		}

		/**
		 * Return when the standing grant ends, if this waiter is known to be next in
		 * line: then it asks at that instant.
		 * @return the standing grant's end as a {@link System#nanoTime()} reading, or
		 * {@link #NOT_NEXT}
		 */
		public long standingEndsAt() {
			return this.standingEndsAt;
		}

		/**
		 * Note what the store answered this waiter: whether it is next in line, and the
		 * standing grant's end. An answer "not next" leaves alone a message "next" that
		 * overtook it (once next in line a waiter stays next until it is handed the key),
		 * unless that instant has passed, so that it cannot make the waiter ask again and
		 * again.
		 * @param next whether the waiter is at the head of the queue
		 * @param standingEndsAt the standing grant's end as a {@link System#nanoTime()}
		 * reading
		 * @param now the {@link System#nanoTime()} of the answer
		 */
		public void answered(boolean next, long standingEndsAt, long now) {
			if (next) {
				this.standingEndsAt = standingEndsAt;
			}
			else if (this.standingEndsAt <= now) {
				this.standingEndsAt = NOT_NEXT;
			}
		}

		/**
		 * Return whether this waiter re-asks for its key's waiters in this JVM.
		 * @return whether it is the delegate
		 */
		public boolean delegate() {
			return this.delegate;
		}

		/**
		 * Return whether a wake-up that named nobody asked this waiter to ask the store,
		 * and forget it.
		 * @return whether to ask now
		 */
		public boolean takeAskNow() {
			boolean ask = this.askNow;
			this.askNow = false;
			return ask;
		}

		/**
		 * Sleep until woken or the time is up; a wake-up that came while the waiter was
		 * awake counts, and is consumed.
		 * @param nanos the longest sleep, in nanoseconds
		 * @throws InterruptedException if the thread is interrupted
		 */
		public void await(long nanos) throws InterruptedException {
			if (this.permit.tryAcquire(Math.max(nanos, 0), TimeUnit.NANOSECONDS)) {
				this.permit.drainPermits();
			}
		}

	}

	/**
	 * A grant handed to a waiter, as committed by the store.
	 *
	 * @param <W> how the host names a waiter
	 * @param waiter the waiter the key was handed to
	 * @param expiresAt the grant's instant on the host's clock
	 */
	public record Handoff<W>(W waiter, Instant expiresAt) {

	}

	/**
	 * The waiter at the head of a key's queue, and when the standing grant ends: the
	 * moment it should ask, since a grant that passes is handed on by nobody.
	 *
	 * @param <W> how the host names a waiter
	 * @param waiter the waiter at the head of the queue
	 * @param standingExpiresAt the standing grant's instant on the host's clock
	 */
	public record NextInLine<W>(W waiter, Instant standingExpiresAt) {

	}

}
