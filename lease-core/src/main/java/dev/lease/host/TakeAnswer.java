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

/**
 * What a host's store answers a caller at a take, and a waiter each time it asks where it
 * stands (Host semantics): the key granted to it, refused (held, for a try; withdrawn,
 * for a waiter), or the caller queued. Instants are microseconds since the epoch on the
 * host's clock ({@link Micros}).
 *
 * @author Lease contributors
 * @since 0.1.0
 * @see KeyModel
 */
public sealed interface TakeAnswer {

	/**
	 * The key granted to the caller.
	 *
	 * @param expiresAt the grant's instant
	 */
	record Granted(long expiresAt) implements TakeAnswer {

	}

	/**
	 * The key not granted: held by another, for a try, or the waiter withdrawn (Non-goal
	 * 4).
	 */
	record Refused() implements TakeAnswer {

	}

	/**
	 * A waiter standing in the queue, with what it needs to know how long it may sleep.
	 *
	 * @param waiterId the waiter's id in the store
	 * @param bound the waiter's bound, fixed at its arrival (Invariant 4)
	 * @param now the host's now when it was answered
	 * @param grantExpiresAt the standing grant's instant then
	 * @param next whether the waiter stands at the head of the queue, so that it asks
	 * when the standing grant ends
	 */
	record Queued(long waiterId, long bound, long now, long grantExpiresAt, boolean next) implements TakeAnswer {

	}

}
