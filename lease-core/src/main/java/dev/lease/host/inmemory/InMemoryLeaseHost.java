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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiFunction;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import dev.lease.AsyncLeaseHost;
import dev.lease.GrantsPage;
import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.QueuedTakes;
import dev.lease.ReleaseResult;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.host.BlockingWaiter;
import dev.lease.host.HostArguments;
import dev.lease.host.KeyCursor;
import dev.lease.host.KeyModel;
import dev.lease.host.Micros;
import dev.lease.host.TakeAnswer;
import dev.lease.host.TakeAnswer.Granted;
import dev.lease.host.TakeAnswer.Queued;
import dev.lease.host.WaiterMachine;
import dev.lease.host.Wakeups;

/**
 * A {@link LeaseHost} in this JVM's memory, with a lock per key. Exact to the atom, and
 * the test double for every other host; but a lease it grants is seen by this JVM only,
 * so it is no critical section across instances (Composition note 3).
 * <p>
 * The clock is the system clock unless another is given, read as never going back for a
 * key; whoever moves a given clock by hand says so ({@link #clockMoved()}). Instants and
 * terms are whole microseconds, as on every other host, so a duration finer than one
 * microsecond is refused; the state of each key is the kit's
 * {@link dev.lease.host.KeyModel}. A key that is free leaves nothing behind: a released
 * key is removed at once, and a key whose grant simply passed is removed by a small
 * amortised clean-up that every take runs.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class InMemoryLeaseHost implements LeaseHost, AutoCloseable {

	static final HostArguments ARGUMENTS = HostArguments.of(Duration.ofNanos(1000), HostArguments.DEFAULT_MAXIMUM);

	private final KeyTable states = new KeyTable();

	private final InstantSource clock;

	private final InMemoryAsyncLeaseHost async;

	// The blocking takes sleeping in this host, by the state of their key: a key stored
	// again after it was freed numbers its waiters afresh.
	private final Wakeups<KeyState, Long> sleepers = new Wakeups<>();

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
		this(clock, null);
	}

	/**
	 * Create a host on the given clock whose asynchronous waiters' steps run on the
	 * application's scheduler, which {@link #close()} leaves running.
	 * @param clock the host's clock
	 * @param scheduler the scheduler, or {@code null} for a thread of the host's own
	 * @since 0.1.0
	 */
	public InMemoryLeaseHost(InstantSource clock, @Nullable ScheduledExecutorService scheduler) {
		if (clock == null) {
			throw new IllegalArgumentException("'clock' must not be null");
		}
		this.clock = clock;
		this.async = new InMemoryAsyncLeaseHost(this, scheduler);
	}

	/**
	 * Cancel the steps and timers of its asynchronous waiters, and stop its own thread if
	 * it made one.
	 */
	@Override
	public void close() {
		this.async.close();
	}

	@Override
	public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		Entry entry = enter(key, holder, duration, true);
		if (!(entry.answer() instanceof Queued queued)) {
			return taken(key, holder, entry.answer());
		}
		Wakeups.Signal<Long> signal = entry.signal();
		try {
			return BlockingWaiter.await(signal, new WaiterMachine(signal, duration, null), queued,
					new SleepingWaiter(this, entry.state(), holder, queued.waiterId()), Runnable::run);
		}
		finally {
			this.sleepers.unregister(entry.state(), signal);
		}
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		TakeAnswer answer = enter(key, holder, duration, false).answer();
		return (answer instanceof Granted) ? taken(key, holder, answer) : new Held();
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		HostArguments.requireKeyAndHolder(key, holder);
		return read(key, (state, model) -> model.remaining(holder, now(model)));
	}

	// A question that writes nothing but the clock's reading (Check 5.2), asked of the
	// key's model under its lock; empty for a key with nothing stored.
	private <T> Optional<T> read(LeaseKey key, BiFunction<KeyState, KeyModel, Optional<T>> question) {
		KeyState state = this.states.lock(key, false);
		if (state == null) {
			return Optional.empty();
		}
		try {
			KeyModel model = state.model();
			Optional<T> answer = question.apply(state, model);
			state.saveClock(model);
			return answer;
		}
		finally {
			state.lock.unlock();
		}
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		HostArguments.requireKeyAndHolder(key, holder);
		return write(key, (model) -> model.release(holder, now(model))) ? new Released() : new NotHeld();
	}

	// A question that may change the key, asked of its model under its lock: the model is
	// saved if the question answers that it changed it, else its clock reading only, and
	// the key's lock is let go as after every write. False for a key with nothing stored.
	boolean write(LeaseKey key, Predicate<KeyModel> question) {
		KeyState state = this.states.lock(key, false);
		if (state == null) {
			return false;
		}
		try {
			KeyModel model = state.model();
			boolean changed = question.test(model);
			if (changed) {
				state.save(model);
			}
			else {
				state.saveClock(model);
			}
			return changed;
		}
		finally {
			unlock(state);
		}
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Pages in one fixed order of the keys (by a hash of the key, then by the key), the
	 * cursor naming the last stored key the page looked at: a key is listed at most once
	 * in a pass. A page looks at up to {@code limit} stored keys, so it may list fewer
	 * grants while a next page is named; it costs the sort of about {@code limit} plus
	 * 1/256 of the stored keys.
	 */
	@Override
	public GrantsPage grants(@Nullable String cursor, int limit) {
		HostArguments.requireLimit(limit);
		LeaseKey after = (cursor != null) ? KeyCursor.key(cursor) : null;
		long reading = reading();
		Instant readAt = Micros.toInstant(reading);
		List<KeyState> page = this.states.after(after, limit);
		List<Lease> grants = new ArrayList<>();
		Map<LeaseKey, Instant> starts = new HashMap<>();
		for (KeyState state : page) {
			state.lock.lock();
			try {
				KeyModel model = state.model();
				long now = model.now(reading);
				model.resolve(now);
				state.saveClock(model);
				LeaseHolder holder = model.holder();
				if (holder != null) {
					grants.add(new Lease(state.key, holder, Micros.toInstant(model.expiresAt())));
					starts.put(state.key, Micros.toInstant(model.grantedAt()));
				}
			}
			finally {
				state.lock.unlock();
			}
		}
		String next = (page.size() == limit) ? KeyCursor.of(page.get(limit - 1).key) : null;
		return new GrantsPage(grants, readAt, next, starts);
	}

	@Override
	public Optional<Lease> grant(LeaseKey key) {
		HostArguments.requireKey(key);
		return read(key, (state, model) -> {
			model.resolve(now(model));
			LeaseHolder holder = model.holder();
			return (holder != null) ? Optional.of(new Lease(key, holder, Micros.toInstant(model.expiresAt())))
					: Optional.empty();
		});
	}

	@Override
	public Optional<Instant> grantedAt(Lease grant) {
		HostArguments.requireKey(grant.key());
		return read(grant.key(), (state, model) -> {
			model.resolve(now(model));
			boolean stands = grant.holder().equals(model.holder())
					&& grant.expiresAt().equals(Micros.toInstant(model.expiresAt()));
			return stands ? Optional.of(Micros.toInstant(model.grantedAt())) : Optional.empty();
		});
	}

	@Override
	public Optional<QueuedTakes> waiting(LeaseKey key) {
		HostArguments.requireKey(key);
		return read(key, (state, model) -> Optional.of(state.waiting(model, now(model))))
			.or(() -> Optional.of(QueuedTakes.NONE));
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Served natively: a take that waits is a waiter of the key's one queue, beside the
	 * blocking ones and in the same arrival order, completed by the release or expiry
	 * that hands it the key; it holds no thread. The instants at which a waiter needs an
	 * answer without anyone asking (its grant's instant, its bound) are kept on the
	 * host's scheduler. The other questions answer on the caller's thread, holding a
	 * key's lock only for one step of the state model, as the blocking ones do.
	 */
	@Override
	public AsyncLeaseHost async() {
		return this.async;
	}

	/**
	 * Tell the host that its clock moved on by more than the time that passed, as a
	 * test's clock does when advanced: every waiting take, blocking or not, asks again at
	 * once, so that a waiter whose holder's instant or whose own bound the clock passed
	 * is answered now rather than after the real time it read from the clock. Nothing
	 * else needs it: every other question reads the clock when it is asked.
	 */
	public void clockMoved() {
		this.states.forEach((state) -> this.sleepers.wake(state, List.of()));
	}

	// Number of keys with stored state; free keys must not accumulate.
	int storedKeys() {
		return this.states.size();
	}

	// Take the key if it is free; otherwise refuse, or queue the caller, whose wake-ups
	// are registered before the key's lock is let go: no wake-up is missed.
	Entry enter(LeaseKey key, LeaseHolder holder, Duration duration, boolean waits) {
		long micros = Micros.of(ARGUMENTS.requireTake(key, holder, duration));
		long reading = Long.MIN_VALUE;
		KeyState state = this.states.lock(key, true);
		try {
			reading = reading();
			KeyModel model = state.model();
			TakeAnswer answer = model.take(holder, micros, model.now(reading), waits, state::nextWaiterId);
			state.save(model);
			return new Entry(state, answer,
					(answer instanceof Queued queued) ? this.sleepers.register(state, queued.waiterId()) : null);
		}
		finally {
			unlock(state);
			this.states.cleanUpSome(reading);
		}
	}

	private long now(KeyModel model) {
		return model.now(reading());
	}

	long reading() {
		return Micros.of(this.clock.instant());
	}

	static Taken taken(LeaseKey key, LeaseHolder holder, TakeAnswer granted) {
		return new Taken(new Lease(key, holder, Micros.toInstant(((Granted) granted).expiresAt())));
	}

	// The question just read the clock and saved its reading: no second reading is
	// needed to see that the key is free. The waiters its saves named are woken once the
	// lock is let go.
	void unlock(KeyState state) {
		Runnable wakeUps;
		try {
			this.states.retireIfFree(state, Long.MIN_VALUE);
			wakeUps = state.wakeUps(this.sleepers);
		}
		finally {
			state.lock.unlock();
		}
		if (wakeUps != null) {
			wakeUps.run();
		}
	}

	Wakeups<KeyState, Long> sleepers() {
		return this.sleepers;
	}

	// A take's step under the key's lock: the key's state, the state model's answer, and
	// the waiter's wake-ups when it queued.
	record Entry(KeyState state, TakeAnswer answer, Wakeups.@Nullable Signal<Long> signal) {
	}

}
