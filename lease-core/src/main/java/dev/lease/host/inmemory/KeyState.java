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

package dev.lease.host.inmemory;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;

/**
 * The stored state of one key: at most a grant and a FIFO queue of waiters, guarded by
 * the key's own lock. Every question first resolves it at the host's now; a grant whose
 * instant has passed is read as free, never recorded as expired (State 2, 3).
 *
 * @author Lease contributors
 */
final class KeyState {

	final LeaseKey key;

	final ReentrantLock lock = new ReentrantLock();

	/**
	 * Signalled to every waiter whenever the standing grant changes: the one handed the
	 * key finds it granted, and each of the others sleeps again until the new grant's
	 * instant rather than the one it saw before.
	 */
	final Condition grantChanged = this.lock.newCondition();

	final ArrayDeque<Waiter> queue = new ArrayDeque<>();

	@Nullable Lease grant;

	/**
	 * Set once the state left the map; a thread that locks it must look the key up again.
	 */
	boolean retired;

	private Instant latest = Instant.MIN;

	KeyState(LeaseKey key) {
		this.key = key;
	}

	// Read the host clock, never letting it go back for this key, so that an ended grant
	// cannot come back to life when the clock steps backwards.
	Instant now(InstantSource clock) {
		return notBefore(clock.instant());
	}

	// The later of a reading taken once for many keys and this key's latest.
	Instant notBefore(Instant reading) {
		if (reading.isAfter(this.latest)) {
			this.latest = reading;
		}
		return this.latest;
	}

	// Derive the state at now: each passed grant hands the key to the first waiter whose
	// bound has not passed, granted as of the instant the key became free.
	void resolve(Instant now) {
		while (this.grant != null && !this.grant.expiresAt().isAfter(now)) {
			handOn(this.grant.expiresAt());
		}
	}

	// End the standing grant at freedAt and hand the key to the first waiter in arrival
	// order whose bound has not passed (Non-goal 3, 4). A bound equal to the instant
	// still takes the key (Operation 2 before Operation 4).
	void handOn(Instant freedAt) {
		this.grantChanged.signalAll();
		Waiter waiter;
		while ((waiter = this.queue.poll()) != null) {
			if (!waiter.bound.isBefore(freedAt)) {
				this.grant = new Lease(this.key, waiter.holder, freedAt.plus(waiter.duration));
				waiter.hand(this.grant);
				return;
			}
		}
		this.grant = null;
	}

	// The grant standing at now, derived without changing anything: what resolve would
	// store. Bounds are passed over in one forward walk, which drops exactly the waiters
	// resolve drops, because the instants a key frees at only grow.
	@Nullable Lease standing(Instant now) {
		Lease current = this.grant;
		Iterator<Waiter> waiters = this.queue.iterator();
		while (current != null && !current.expiresAt().isAfter(now)) {
			Instant freedAt = current.expiresAt();
			current = null;
			while (current == null && waiters.hasNext()) {
				Waiter waiter = waiters.next();
				if (!waiter.bound.isBefore(freedAt)) {
					current = new Lease(this.key, waiter.holder, freedAt.plus(waiter.duration));
				}
			}
		}
		return current;
	}

	Lease grantTo(LeaseHolder holder, Instant now, Duration duration) {
		this.grant = new Lease(this.key, holder, now.plus(duration));
		return this.grant;
	}

	boolean isHeldOrAwaitedBy(LeaseHolder holder, Instant now) {
		if (this.grant != null && this.grant.holder().equals(holder)) {
			return true;
		}
		for (Waiter waiter : this.queue) {
			if (waiter.holder.equals(holder) && !now.isAfter(waiter.bound)) {
				return true;
			}
		}
		return false;
	}

	// Remove queued entries of this holder whose bound has passed; a new take replaces
	// them.
	void dropLapsed(LeaseHolder holder, Instant now) {
		this.queue.removeIf((waiter) -> waiter.holder.equals(holder) && now.isAfter(waiter.bound));
	}

	boolean isFree(Instant now) {
		return this.queue.isEmpty() && (this.grant == null || !this.grant.expiresAt().isAfter(now));
	}

}
