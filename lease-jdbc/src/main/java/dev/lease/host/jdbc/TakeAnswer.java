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

/**
 * What the store answers a caller at a take: the key granted to it, refused (held, for a
 * try; withdrawn at its bound, for a waiter), or the caller queued.
 *
 * @author Lease contributors
 */
sealed interface TakeAnswer {

	/**
	 * The key granted to the caller.
	 *
	 * @param expiresAt the grant's instant, microseconds since the epoch
	 */
	record Granted(long expiresAt) implements TakeAnswer {

	}

	/**
	 * The key not granted: held by another, or the waiter withdrawn (Non-goal 4).
	 */
	record Refused() implements TakeAnswer {

	}

	/**
	 * A waiter standing in the queue: its row, its bound, and the last answer it had, all
	 * in microseconds on the database's clock.
	 *
	 * @param waiterId the waiter's row
	 * @param bound the waiter's bound, fixed at its arrival (Invariant 4)
	 * @param now the database's now when it was answered
	 * @param grantExpiresAt the standing grant's instant then
	 */
	record Queued(long waiterId, long bound, long now, long grantExpiresAt) implements TakeAnswer {

	}

}
