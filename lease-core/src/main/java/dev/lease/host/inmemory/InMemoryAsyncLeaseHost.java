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
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.lease.AsyncLeaseHost;
import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.Unavailable;
import dev.lease.host.HostThreads;
import dev.lease.host.KeyModel;
import dev.lease.host.Micros;
import dev.lease.host.TakeAnswer;
import dev.lease.host.TakeAnswer.Queued;
import dev.lease.host.inmemory.AsyncWaiters.Settlement;
import dev.lease.host.inmemory.AsyncWaiters.Waiter;

/**
 * The in-memory host's questions answered without a thread of their own: a take that
 * finds the key held queues a waiter with a future in the key's one queue, beside the
 * blocking waiters and in the same arrival order, and the release or expiry that hands it
 * the key completes the future. The questions that never wait answer on the caller's
 * thread, holding the key's lock only for the state model's step, as the blocking ones
 * do.
 * <p>
 * Nobody asks for a waiter at its grant's instant or its bound: the host's scheduler
 * keeps an alarm per key that has such waiters, at the first of those instants, and asks
 * for them then. A future completes on the thread that handed the key (the releasing
 * caller's, or the scheduler's), never under the key's lock.
 *
 * @author Lease contributors
 */
final class InMemoryAsyncLeaseHost implements AsyncLeaseHost, AutoCloseable {

	private final InMemoryLeaseHost host;

	private final HostThreads threads;

	InMemoryAsyncLeaseHost(InMemoryLeaseHost host, @Nullable ScheduledExecutorService scheduler) {
		this.host = host;
		this.threads = new HostThreads("memory", null, scheduler);
	}

	@Override
	public void close() {
		this.threads.close();
	}

	@Override
	public CompletableFuture<TakeResult> take(LeaseKey key, LeaseHolder holder, Duration duration) {
		long micros;
		try {
			micros = Micros.of(InMemoryLeaseHost.ARGUMENTS.requireTake(key, holder, duration));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		CompletableFuture<TakeResult> answer = new CompletableFuture<>();
		Waiter waiter = null;
		long reading = Long.MIN_VALUE;
		KeyState state = this.host.lock(key);
		try {
			reading = this.host.reading();
			TakeAnswer entered = this.host.enter(state, holder, micros, reading, true);
			if (entered instanceof Queued queued) {
				waiter = new Waiter(queued.waiterId(), holder, queued.bound(), answer);
				state.async().add(waiter);
			}
			else {
				answer.complete(InMemoryLeaseHost.taken(key, holder, entered));
			}
		}
		catch (RuntimeException ex) {
			answer.completeExceptionally(ex);
		}
		finally {
			this.host.unlock(state);
			this.host.cleanUpSome(reading);
		}
		if (waiter != null) {
			Waiter queued = waiter;
			// Cancelled, or completed by anyone but the host: withdrawn.
			answer.whenComplete((result, failure) -> {
				if (!queued.settled) {
					withdraw(state, queued);
				}
			});
		}
		return answer;
	}

	@Override
	public CompletableFuture<TryTakeResult> tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		return now(() -> this.host.tryTake(key, holder, duration));
	}

	@Override
	public CompletableFuture<Optional<Duration>> remaining(LeaseKey key, LeaseHolder holder) {
		return now(() -> this.host.remaining(key, holder));
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LeaseKey key, LeaseHolder holder) {
		return now(() -> this.host.release(key, holder));
	}

	@Override
	public CompletableFuture<GrantsPage> grants(@Nullable String cursor, int limit) {
		return now(() -> this.host.grants(cursor, limit));
	}

	// The blocking question, which never waits for a key, answered on the caller's
	// thread.
	private static <T> CompletableFuture<T> now(Supplier<T> question) {
		try {
			return CompletableFuture.completedFuture(question.get());
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	// The caller gave up: dequeued, or, if the key was handed to it at that moment,
	// the grant given back (as an interrupted blocking take).
	private void withdraw(KeyState state, Waiter waiter) {
		state.lock.lock();
		try {
			if (!state.async().withdraw(waiter)) {
				return;
			}
			KeyModel model = state.model();
			model.ask(waiter.id, waiter.holder, OptionalLong.empty(), model.now(this.host.reading()), true);
			state.save(model);
			state.forget(waiter.id);
		}
		finally {
			this.host.unlock(state);
		}
	}

	// The alarm: ask for every waiter without a thread, as a sleeping waiter asks when
	// it wakes; the handoffs and drops the step saves settle them.
	private void ring(KeyState state) {
		askForWaiters(state, false);
	}

	/**
	 * The host's clock moved on by hand: every waiter of the key asks now, those without
	 * a thread here and the sleeping ones on their own threads, rather than after the
	 * real time each read from the clock.
	 * @param state the key's state, not locked
	 */
	void clockMoved(KeyState state) {
		askForWaiters(state, true);
	}

	private void askForWaiters(KeyState state, boolean clockMoved) {
		state.lock.lock();
		try {
			if (state.retired) {
				return;
			}
			AsyncWaiters async = state.asyncIfAny();
			if (async == null || (clockMoved && async.isEmpty())) {
				return;
			}
			if (clockMoved) {
				async.clockMoved();
			}
			else {
				async.alarmRang();
			}
			KeyModel model = state.model();
			long now = model.now(this.host.reading());
			for (Waiter waiter : async.waiters()) {
				model.ask(waiter.id, waiter.holder, OptionalLong.empty(), now, false);
			}
			state.save(model);
		}
		finally {
			this.host.unlock(state);
		}
	}

	/**
	 * After a question saved the key's state, under its lock: set the alarm earlier if
	 * the grant or the queue moved the first instant a waiter needs an answer, and take
	 * the waiters settled, to be completed once the lock is let go.
	 * @param state the key's state, locked
	 * @return the settled waiters
	 */
	List<Settlement> afterSave(KeyState state) {
		AsyncWaiters async = state.asyncIfAny();
		if (async == null) {
			return List.of();
		}
		long at = async.alarmToSet(state.grantExpiresAt());
		if (at != Long.MAX_VALUE) {
			// One microsecond past the instant: a bound equal to now still takes the key.
			long delay = Micros.toNanos(Math.max(0, at - state.latest()) + 1);
			try {
				async.alarmSet(at, this.threads.schedule(() -> ring(state), delay, TimeUnit.NANOSECONDS));
			}
			catch (RejectedExecutionException ex) {
				// closed: no alarm rings any more
			}
		}
		return async.drain();
	}

	/**
	 * Complete the futures of settled waiters, outside the key's lock; a grant whose
	 * future was cancelled first is given back.
	 * @param key the key
	 * @param settled the settled waiters
	 */
	void settle(LeaseKey key, List<Settlement> settled) {
		for (Settlement settlement : settled) {
			Waiter waiter = settlement.waiter();
			Long expiresAt = settlement.expiresAt();
			if (expiresAt == null) {
				waiter.answer.complete(new Unavailable());
			}
			else if (!waiter.answer.complete(new Taken(new Lease(key, waiter.holder, Micros.toInstant(expiresAt))))) {
				giveBack(key, waiter.holder, expiresAt);
			}
		}
	}

	// Give back a grant handed to a waiter whose future was cancelled as it was made,
	// if it still stands.
	private void giveBack(LeaseKey key, LeaseHolder holder, long expiresAt) {
		KeyState state = this.host.lockIfPresent(key);
		if (state == null) {
			return;
		}
		try {
			KeyModel model = state.model();
			long now = model.now(this.host.reading());
			model.resolve(now);
			if (holder.equals(model.holder()) && model.expiresAt() == expiresAt) {
				model.release(holder, now);
				state.save(model);
			}
			else {
				state.saveClock(model);
			}
		}
		finally {
			this.host.unlock(state);
		}
	}

}
