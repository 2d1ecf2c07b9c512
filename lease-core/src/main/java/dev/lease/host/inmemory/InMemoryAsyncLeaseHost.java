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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.lease.AsyncLeaseHost;
import dev.lease.GrantsPage;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.TryTakeResult;
import dev.lease.host.HostThreads;
import dev.lease.host.Micros;
import dev.lease.host.ScheduledWaiter;
import dev.lease.host.TakeAnswer;
import dev.lease.host.TakeAnswer.Queued;
import dev.lease.host.WaiterMachine;
import dev.lease.host.Wakeups;

/**
 * The in-memory host's questions answered without a thread of their own: a take that
 * finds the key held queues a waiter in the key's one queue, beside the blocking waiters
 * and in the same arrival order, and waits through the host kit's {@link ScheduledWaiter}
 * on the host's scheduler, woken as a blocking waiter is by the save that hands it the
 * key. The questions that never wait answer on the caller's thread, holding the key's
 * lock only for the state model's step, as the blocking ones do.
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
		InMemoryLeaseHost.Entry entry;
		try {
			entry = this.host.enter(key, holder, duration, true);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		if (!(entry.answer() instanceof Queued queued)) {
			return CompletableFuture.completedFuture(InMemoryLeaseHost.taken(key, holder, entry.answer()));
		}
		KeyState state = entry.state();
		Wakeups.Signal<Long> signal = entry.signal();
		ScheduledWaiter waiter = new ScheduledWaiter(signal, new WaiterMachine(signal, duration, null),
				new Questions(new SleepingWaiter(this.host, state, holder, queued.waiterId())), this.threads::schedule,
				() -> this.host.sleepers().unregister(state, signal));
		waiter.start(CompletableFuture.completedFuture(queued));
		return waiter.answer();
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

	/**
	 * A non-blocking take's questions: the blocking waiter's, answered at once. A grant a
	 * wake-up named is no longer kept at the key once the take is answered it, before its
	 * future completes: nothing of the key is locked after that (a non-blocking caller
	 * the answer releases would wait for the lock), and a cancel before the completion
	 * finds the future cancelled, and the waiter gives the grant back.
	 */
	private static final class Questions implements ScheduledWaiter.Questions {

		private final SleepingWaiter questions;

		private volatile long expiresAt;

		Questions(SleepingWaiter questions) {
			this.questions = questions;
		}

		@Override
		public CompletionStage<TakeAnswer> ask(boolean atBound, long answerBy) {
			return now(() -> this.questions.ask(atBound, answerBy));
		}

		@Override
		public CompletionStage<?> withdraw() {
			return now(() -> {
				this.questions.withdraw();
				return null;
			});
		}

		@Override
		public CompletionStage<TakeResult> taken(Instant expiresAt, boolean handed) {
			this.expiresAt = Micros.of(expiresAt);
			return now(() -> this.questions.taken(expiresAt, handed));
		}

		@Override
		public void giveBack() {
			this.questions.giveBack(this.expiresAt);
		}

	}

}
