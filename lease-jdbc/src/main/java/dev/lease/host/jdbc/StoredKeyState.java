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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The stored state of one key as read inside a transaction that locks its row: at most a
 * grant and a FIFO queue of waiters. {@link #resolve(long)} is DESIGN §4's pure function,
 * written as the in-memory host writes it; the changes it makes are collected so that the
 * transaction can write them back, or drop them for a question that saves nothing.
 *
 * @author Lease contributors
 */
final class StoredKeyState {

	final byte[] key;

	/** Whether the key has a row. */
	final boolean stored;

	byte @Nullable [] holder;

	long expiresAt;

	/** The latest reading of the database clock saved for this key. */
	final long latest;

	long arrivals;

	final ArrayDeque<StoredWaiter> queue = new ArrayDeque<>();

	final List<StoredWaiter> handed = new ArrayList<>();

	final List<StoredWaiter> dropped = new ArrayList<>();

	final List<StoredWaiter> added = new ArrayList<>();

	StoredKeyState(byte[] key, boolean stored, byte @Nullable [] holder, long expiresAt, long latest, long arrivals) {
		this.key = key;
		this.stored = stored;
		this.holder = holder;
		this.expiresAt = expiresAt;
		this.latest = latest;
		this.arrivals = arrivals;
	}

	// Never let the clock go back for a key: the later of the reading and the saved one.
	long now(long reading) {
		return Math.max(reading, this.latest);
	}

	// Derive the state at now: each passed grant hands the key to the first waiter whose
	// bound has not passed, granted as of the instant the key became free.
	void resolve(long now) {
		while (this.holder != null && this.expiresAt <= now) {
			handOn(this.expiresAt);
		}
	}

	// End the standing grant at freedAt and hand the key to the first waiter in arrival
	// order whose bound has not passed (Non-goal 3, 4). A bound equal to the instant
	// still takes the key (Operation 2 before Operation 4).
	void handOn(long freedAt) {
		StoredWaiter waiter;
		while ((waiter = this.queue.poll()) != null) {
			if (waiter.bound >= freedAt) {
				this.holder = waiter.holder;
				this.expiresAt = freedAt + waiter.durationMicros;
				waiter.grantedExpiresAt = this.expiresAt;
				this.handed.add(waiter);
				return;
			}
			this.dropped.add(waiter);
		}
		this.holder = null;
	}

	void grantTo(byte[] holder, long now, long durationMicros) {
		this.holder = holder;
		this.expiresAt = now + durationMicros;
	}

	boolean isHeldBy(byte[] holder) {
		return this.holder != null && Arrays.equals(this.holder, holder);
	}

	boolean isHeldOrAwaitedBy(byte[] holder, long now) {
		if (isHeldBy(holder)) {
			return true;
		}
		for (StoredWaiter waiter : this.queue) {
			if (Arrays.equals(waiter.holder, holder) && now <= waiter.bound) {
				return true;
			}
		}
		return false;
	}

	// Remove queued entries of this holder whose bound has passed; a new take replaces
	// them.
	void dropLapsed(byte[] holder, long now) {
		this.queue.removeIf((waiter) -> {
			boolean lapsed = Arrays.equals(waiter.holder, holder) && now > waiter.bound;
			if (lapsed) {
				this.dropped.add(waiter);
			}
			return lapsed;
		});
	}

	void enqueue(StoredWaiter waiter) {
		this.queue.add(waiter);
		this.added.add(waiter);
	}

	// Withdraw a queued waiter, if it is still queued.
	void withdraw(long waiterId) {
		this.queue.removeIf((waiter) -> {
			boolean mine = waiter.id == waiterId;
			if (mine) {
				this.dropped.add(waiter);
			}
			return mine;
		});
	}

	@Nullable StoredWaiter handedTo(long waiterId) {
		for (StoredWaiter waiter : this.handed) {
			if (waiter.id == waiterId) {
				return waiter;
			}
		}
		return null;
	}

	boolean isFree(long now) {
		return this.queue.isEmpty() && (this.holder == null || this.expiresAt <= now);
	}

	boolean changed() {
		return !this.handed.isEmpty() || !this.dropped.isEmpty() || !this.added.isEmpty();
	}

}
