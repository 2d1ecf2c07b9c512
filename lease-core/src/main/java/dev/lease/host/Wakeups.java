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
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The threads of this JVM waiting at a take, by key, and the calls that wake them. A
 * waiter registers before it asks a question whose answer it may sleep on, so that no
 * wake-up between the answer and the sleep is lost; it then sleeps on its {@link Signal}
 * for no longer than it may (DESIGN §4: expiry is no event and a message can be lost),
 * and unregisters when it leaves.
 * <p>
 * A wake-up may say to which waiters the key was handed, as committed by the store, so
 * that the waiter it names can answer {@code Taken} without asking again.
 *
 * @param <K> how the host names a key, such as {@link dev.lease.LeaseKey} or its encoded
 * store key
 * @param <W> how the host names a waiter, such as its row or ticket
 * @author Lease contributors
 * @since 0.1.0
 */
public final class Wakeups<K, W> {

	private final ConcurrentHashMap<K, Set<Signal<W>>> waiting = new ConcurrentHashMap<>();

	/**
	 * Register a waiter of the given key.
	 * @param key the key
	 * @return the waiter's signal, to {@link #unregister(Object, Signal) unregister} when
	 * it leaves
	 */
	public Signal<W> register(K key) {
		Signal<W> signal = new Signal<>();
		this.waiting.compute(key, (k, signals) -> {
			Set<Signal<W>> set = (signals != null) ? signals : ConcurrentHashMap.newKeySet();
			set.add(signal);
			return set;
		});
		return signal;
	}

	/**
	 * Unregister a waiter of the given key.
	 * @param key the key
	 * @param signal the signal {@link #register(Object)} answered
	 */
	public void unregister(K key, Signal<W> signal) {
		this.waiting.computeIfPresent(key, (k, signals) -> {
			signals.remove(signal);
			return signals.isEmpty() ? null : signals;
		});
	}

	/**
	 * Wake the waiters of a key.
	 * @param key the key
	 * @param handoffs the waiters the key was handed to, as committed by the store; empty
	 * when not known
	 */
	public void wake(K key, List<Handoff<W>> handoffs) {
		Set<Signal<W>> signals = this.waiting.get(key);
		if (signals != null) {
			signals.forEach((signal) -> signal.wake(handoffs));
		}
	}

	/**
	 * Wake every waiter, such as when the host's notifications may have been missed.
	 */
	public void wakeAll() {
		this.waiting.values().forEach((signals) -> signals.forEach((signal) -> signal.wake(List.of())));
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

		private final Semaphore permit = new Semaphore(0);

		private volatile List<Handoff<W>> handoffs = List.of();

		private Signal() {
		}

		void wake(List<Handoff<W>> handoffs) {
			if (!handoffs.isEmpty()) {
				this.handoffs = handoffs;
			}
			if (this.permit.availablePermits() == 0) {
				this.permit.release();
			}
		}

		/**
		 * Return the {@code expiresAt} of a grant that a wake-up said the store handed to
		 * the given waiter.
		 * @param waiter the waiter
		 * @return the grant's instant, or empty when no wake-up named the waiter
		 */
		public Optional<Instant> handedTo(W waiter) {
			for (Handoff<W> handoff : this.handoffs) {
				if (handoff.waiter().equals(waiter)) {
					return Optional.of(handoff.expiresAt());
				}
			}
			return Optional.empty();
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

}
