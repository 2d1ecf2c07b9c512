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
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import dev.lease.GrantsPage;
import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.ReentrantTakeException;
import dev.lease.ReleaseResult;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.Unavailable;
import dev.lease.host.HostArguments;
import dev.lease.host.KeyCursor;

/**
 * A {@link LeaseHost} in this JVM's memory, with a lock per key. Exact to the atom, and
 * the test double for every other host; but a lease it grants is seen by this JVM only,
 * so it is no critical section across instances (Composition note 3).
 * <p>
 * The clock is the system clock unless another is given, read as never going back for a
 * key. A key that is free leaves nothing behind: a released key is removed at once, and a
 * key whose grant simply passed is removed by a small amortised clean-up that every take
 * runs.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class InMemoryLeaseHost implements LeaseHost {

	private static final HostArguments ARGUMENTS = HostArguments.of(Duration.ofNanos(1), HostArguments.DEFAULT_MAXIMUM);

	/** How many stored keys each take looks at for clean-up. */
	private static final int CLEAN_UP_BATCH = 2;

	// In key order, so that a page resumes after the last key it listed.
	private final ConcurrentSkipListMap<LeaseKey, KeyState> states = new ConcurrentSkipListMap<>();

	private final InstantSource clock;

	private final ReentrantLock cleanUpLock = new ReentrantLock();

	private @Nullable Iterator<KeyState> cleanUpCursor;

	/**
	 * Create a host on the system clock.
	 */
	public InMemoryLeaseHost() {
		this(InstantSource.system());
	}

	/**
	 * Create a host on the given clock.
	 * @param clock the host's clock
	 */
	public InMemoryLeaseHost(InstantSource clock) {
		if (clock == null) {
			throw new IllegalArgumentException("'clock' must not be null");
		}
		this.clock = clock;
	}

	@Override
	public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		ARGUMENTS.requireTake(key, holder, duration);
		KeyState state = lock(key);
		try {
			Instant now = state.now(this.clock);
			Lease taken = takeIfFree(state, holder, duration, now);
			if (taken != null) {
				return new Taken(taken);
			}
			Waiter waiter = new Waiter(holder, duration, state.grant.expiresAt());
			state.queue.add(waiter);
			return await(state, waiter);
		}
		finally {
			unlock(state);
			cleanUpSome();
		}
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		ARGUMENTS.requireTake(key, holder, duration);
		KeyState state = lock(key);
		try {
			Lease taken = takeIfFree(state, holder, duration, state.now(this.clock));
			return (taken != null) ? new Taken(taken) : new Held();
		}
		finally {
			unlock(state);
			cleanUpSome();
		}
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		HostArguments.requireKeyAndHolder(key, holder);
		KeyState state = lockIfPresent(key);
		if (state == null) {
			return Optional.empty();
		}
		try {
			Instant now = state.now(this.clock);
			Lease standing = state.standing(now);
			return (standing != null && standing.holder().equals(holder))
					? Optional.of(Duration.between(now, standing.expiresAt())) : Optional.empty();
		}
		finally {
			state.lock.unlock();
		}
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		HostArguments.requireKeyAndHolder(key, holder);
		KeyState state = lockIfPresent(key);
		if (state == null) {
			return new NotHeld();
		}
		try {
			Instant now = state.now(this.clock);
			Lease standing = state.standing(now);
			if (standing == null || !standing.holder().equals(holder)) {
				// Answered from the derived state; nothing is written (Check 5.2).
				return new NotHeld();
			}
			state.resolve(now);
			state.handOn(now);
			return new Released();
		}
		finally {
			unlock(state);
		}
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Pages in key order ({@link LeaseKey#compareTo(LeaseKey)}), the cursor naming the
	 * last key listed: a key is listed at most once in a pass.
	 */
	@Override
	public GrantsPage grants(@Nullable String cursor, int limit) {
		HostArguments.requireLimit(limit);
		Instant readAt = this.clock.instant();
		Map<LeaseKey, KeyState> rest = (cursor != null) ? this.states.tailMap(KeyCursor.key(cursor), false)
				: this.states;
		List<Lease> grants = new ArrayList<>();
		for (KeyState state : rest.values()) {
			if (grants.size() == limit) {
				return new GrantsPage(grants, readAt, KeyCursor.of(grants.get(limit - 1).key()));
			}
			state.lock.lock();
			try {
				Lease standing = state.standing(state.notBefore(readAt));
				if (standing != null) {
					grants.add(standing);
				}
			}
			finally {
				state.lock.unlock();
			}
		}
		return new GrantsPage(grants, readAt, null);
	}

	@Override
	public Optional<Lease> grant(LeaseKey key) {
		HostArguments.requireKey(key);
		KeyState state = lockIfPresent(key);
		if (state == null) {
			return Optional.empty();
		}
		try {
			// Derived, never resolved: the read writes nothing (Check 5.2).
			return Optional.ofNullable(state.standing(state.now(this.clock)));
		}
		finally {
			state.lock.unlock();
		}
	}

	// Number of keys with stored state; free keys must not accumulate.
	int storedKeys() {
		return this.states.size();
	}

	private @Nullable Lease takeIfFree(KeyState state, LeaseHolder holder, Duration duration, Instant now) {
		state.resolve(now);
		if (state.grant == null) {
			return state.grantTo(holder, now, duration);
		}
		if (state.isHeldOrAwaitedBy(holder, now)) {
			throw new ReentrantTakeException(state.key, holder);
		}
		state.dropLapsed(holder, now);
		return null;
	}

	private TakeResult await(KeyState state, Waiter waiter) throws InterruptedException {
		while (true) {
			Instant now = state.now(this.clock);
			state.resolve(now);
			Lease granted = waiter.granted();
			if (granted != null) {
				return new Taken(granted);
			}
			if (now.isAfter(waiter.bound)) {
				// Bound passed: withdraw, never carry forward (Non-goal 4).
				state.queue.remove(waiter);
				return new Unavailable();
			}
			Instant wakeAt = (state.grant != null && state.grant.expiresAt().isBefore(waiter.bound))
					? state.grant.expiresAt() : waiter.bound;
			try {
				state.grantChanged.awaitNanos(Duration.between(now, wakeAt).toNanos() + 1);
			}
			catch (InterruptedException ex) {
				withdraw(state, waiter);
				throw ex;
			}
		}
	}

	// An interrupted waiter leaves nothing held: it is dequeued, or gives back its grant.
	private void withdraw(KeyState state, Waiter waiter) {
		Instant now = state.now(this.clock);
		state.resolve(now);
		if (waiter.granted() != null && waiter.granted().equals(state.grant)) {
			state.handOn(now);
		}
		state.queue.remove(waiter);
	}

	private KeyState lock(LeaseKey key) {
		while (true) {
			KeyState state = this.states.computeIfAbsent(key, KeyState::new);
			state.lock.lock();
			if (!state.retired) {
				return state;
			}
			state.lock.unlock();
		}
	}

	private @Nullable KeyState lockIfPresent(LeaseKey key) {
		while (true) {
			KeyState state = this.states.get(key);
			if (state == null) {
				return null;
			}
			state.lock.lock();
			if (!state.retired) {
				return state;
			}
			state.lock.unlock();
		}
	}

	private void unlock(KeyState state) {
		try {
			retireIfFree(state);
		}
		finally {
			state.lock.unlock();
		}
	}

	private void retireIfFree(KeyState state) {
		if (!state.retired && state.isFree(state.now(this.clock))) {
			state.retired = true;
			this.states.remove(state.key, state);
		}
	}

	// Look at a few stored keys and remove those whose grant passed with nobody waiting.
	// Removing them changes no answer: a passed grant is read as free either way.
	private void cleanUpSome() {
		if (!this.cleanUpLock.tryLock()) {
			return;
		}
		try {
			for (int i = 0; i < CLEAN_UP_BATCH; i++) {
				if (this.cleanUpCursor == null || !this.cleanUpCursor.hasNext()) {
					this.cleanUpCursor = this.states.values().iterator();
					if (!this.cleanUpCursor.hasNext()) {
						return;
					}
				}
				KeyState state = this.cleanUpCursor.next();
				if (state.lock.tryLock()) {
					try {
						retireIfFree(state);
					}
					finally {
						state.lock.unlock();
					}
				}
			}
		}
		finally {
			this.cleanUpLock.unlock();
		}
	}

}
