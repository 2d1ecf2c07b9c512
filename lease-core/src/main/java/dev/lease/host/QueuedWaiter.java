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

import dev.lease.LeaseHolder;

/**
 * One waiter in a key's queue as a store keeps it. Its bound is the {@code expiresAt} of
 * the grant that stood when it arrived, fixed then and never moved (Invariant 4).
 * Instants and terms are microseconds, instants since the epoch on the host's clock
 * ({@link Micros}).
 *
 * @param id the waiter's id, unique among the waiters of its key
 * @param holder the holder waiting
 * @param duration the term it asked for
 * @param bound the instant after which it is never granted the key (Non-goal 4)
 * @param arrival its place in arrival order, counted per key
 * @param arrivedAt the key's now when it was queued, or 0 where the store does not know
 * (a waiter an older release queued)
 * @author Lease contributors
 * @since 0.1.0
 * @see KeyModel
 */
public record QueuedWaiter(long id, LeaseHolder holder, long duration, long bound, long arrival, long arrivedAt) {

	/**
	 * Create a waiter.
	 * @param id the waiter's id, unique among the waiters of its key
	 * @param holder the holder waiting
	 * @param duration the term it asked for
	 * @param bound the instant after which it is never granted the key
	 * @param arrival its place in arrival order
	 * @param arrivedAt the key's now when it was queued, or 0 where it is not known
	 */
	public QueuedWaiter {
		HostArguments.notNull(holder, "holder");
	}

}
