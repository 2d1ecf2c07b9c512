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

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.host.KeyModel;
import dev.lease.host.QueuedWaiter;
import dev.lease.host.WaiterQueue;

/**
 * A key's row as read: its grant, the latest clock reading saved for it, its queue's
 * length and its count of arrivals. Read from the columns {@code HOLDER, EXPIRES_AT,
 * LATEST, QUEUED, ARRIVALS} in that order, starting at a given column.
 *
 * @param holder the holder of the stored grant, or {@code null}
 * @param expiresAt the stored grant's instant, microseconds since the epoch
 * @param latest the latest reading of the database clock saved for the key
 * @param queued how many waiters are queued
 * @param arrivals how many waiters have arrived
 * @author Lease contributors
 */
record KeyRow(byte @Nullable [] holder, long expiresAt, long latest, int queued, long arrivals) {

	static KeyRow of(@Nullable Object[] row, int first) {
		Object expiresAt = row[first + 1];
		return new KeyRow((byte[]) row[first], (expiresAt != null) ? ((Number) expiresAt).longValue() : 0,
				number(row[first + 2]), (int) number(row[first + 3]), number(row[first + 4]));
	}

	KeyModel state(LeaseKey key, List<QueuedWaiter> queue) {
		return new KeyModel(key, (this.holder != null) ? LeaseHolder.of(this.holder) : null, this.expiresAt,
				this.latest, this.arrivals, WaiterQueue.of(queue));
	}

	// The HOLDER column of a state: null when no grant stands.
	static byte @Nullable [] holderBytes(KeyModel state) {
		LeaseHolder holder = state.holder();
		return (holder != null) ? holder.bytes() : null;
	}

	static long number(@Nullable Object column) {
		if (column == null) {
			throw new IllegalStateException("The database answered no value for a column that has one");
		}
		return ((Number) column).longValue();
	}

	// A waiter's columns WAITER_ID, HOLDER, DURATION_MICROS, BOUND, ARRIVAL from the
	// given column on.
	static QueuedWaiter waiter(@Nullable Object[] row, int first) {
		return new QueuedWaiter(number(row[first]), LeaseHolder.of((byte[]) row[first + 1]), number(row[first + 2]),
				number(row[first + 3]), number(row[first + 4]));
	}

}
