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

package dev.lease.host.jdbc;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import dev.lease.LeaseKey;

/**
 * The waiters of this host, by key, so that a release here or a notification from the
 * database wakes the ones that wait for that key. A waiter registers before it asks a
 * question whose answer it will sleep on, so no wake-up falls between the two.
 *
 * @author Lease contributors
 */
final class JdbcLeaseWakeups {

	private final ConcurrentHashMap<LeaseKey, Set<Signal>> waiting = new ConcurrentHashMap<>();

	Signal register(LeaseKey key) {
		Signal signal = new Signal();
		this.waiting.compute(key, (k, signals) -> {
			Set<Signal> set = (signals != null) ? signals : ConcurrentHashMap.newKeySet();
			set.add(signal);
			return set;
		});
		return signal;
	}

	void unregister(LeaseKey key, Signal signal) {
		this.waiting.computeIfPresent(key, (k, signals) -> {
			signals.remove(signal);
			return signals.isEmpty() ? null : signals;
		});
	}

	// Wake the waiters of a key, telling them to whom it was handed, when that is known,
	// so that the one it went to need not ask.
	void wake(LeaseKey key, List<Handoff> handoffs) {
		Set<Signal> signals = this.waiting.get(key);
		if (signals != null) {
			signals.forEach((signal) -> signal.wake(handoffs));
		}
	}

	void wakeAll() {
		this.waiting.values().forEach((signals) -> signals.forEach((signal) -> signal.wake(List.of())));
	}

	boolean isEmpty() {
		return this.waiting.isEmpty();
	}

	/**
	 * One waiter's wake-up: at most one pending, consumed by the next wait.
	 */
	static final class Signal {

		private final Semaphore permit = new Semaphore(0);

		private volatile List<Handoff> handoffs = List.of();

		void wake(List<Handoff> handoffs) {
			if (!handoffs.isEmpty()) {
				this.handoffs = handoffs;
			}
			if (this.permit.availablePermits() == 0) {
				this.permit.release();
			}
		}

		// The expiresAt of a grant the database said it handed to this waiter, or
		// Long.MIN_VALUE.
		long handedTo(long waiterId) {
			for (Handoff handoff : this.handoffs) {
				if (handoff.waiterId() == waiterId) {
					return handoff.expiresAt();
				}
			}
			return Long.MIN_VALUE;
		}

		void await(long nanos) throws InterruptedException {
			if (this.permit.tryAcquire(Math.max(nanos, 0), TimeUnit.NANOSECONDS)) {
				this.permit.drainPermits();
			}
		}

	}

	/**
	 * A grant handed to a waiter, as committed by the transaction that handed it.
	 *
	 * @param waiterId the waiter's row
	 * @param expiresAt the grant's instant in microseconds since the epoch
	 */
	record Handoff(long waiterId, long expiresAt) {

	}

}
