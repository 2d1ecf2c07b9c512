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
 * One waiter's row: its bound is the {@code expiresAt} of the grant that stood when it
 * arrived, read on the database's clock and never moved (Invariant 4). All instants are
 * microseconds since the epoch on the database's clock.
 *
 * @author Lease contributors
 */
final class StoredWaiter {

	final long id;

	final byte[] holder;

	final long durationMicros;

	final long bound;

	final long arrival;

	/** Set when resolve hands the key to this waiter; kept until the waiter asks. */
	long grantedExpiresAt = Long.MIN_VALUE;

	StoredWaiter(long id, byte[] holder, long durationMicros, long bound, long arrival) {
		this.id = id;
		this.holder = holder;
		this.durationMicros = durationMicros;
		this.bound = bound;
		this.arrival = arrival;
	}

}
