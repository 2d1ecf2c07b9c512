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

package dev.lease;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ThreadedAsyncLeaseHost}: a blocking host's questions on threads of
 * their own, over the in-memory host.
 *
 * @author Lease contributors
 */
class ThreadedAsyncLeaseHostTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static final Duration WITHIN = Duration.ofSeconds(10);

	private final InMemoryLeaseHost memory = new InMemoryLeaseHost();

	private final LeaseKey key = LeaseKey.of("threaded-" + UUID.randomUUID());

	private final LeaseHolder holder = LeaseHolder.of("holder");

	private final LeaseHolder waiter = LeaseHolder.of("waiter");

	@Test
	@DisplayName("AsyncLeaseHost cancellation, Operation 11: a waiting take whose future is cancelled is withdrawn by the time cancel returns, and is never handed the key")
	void cancelWhileTakeWaitsWithdrawsIt() throws Exception {
		AsyncLeaseHost view = AsyncLeaseHost.onThreads(this.memory);
		assertThat(this.memory.tryTake(this.key, this.holder, TERM)).isInstanceOf(Taken.class);
		CompletableFuture<TakeResult> take = view.take(this.key, this.waiter, TERM);
		awaitQueued(this.memory, this.waiter);
		assertThat(take.cancel(false)).isTrue();
		assertThat(this.memory.release(this.key, this.holder)).isInstanceOf(Released.class);
		assertThat(this.memory.grant(this.key)).as("the key handed to nobody").isEmpty();
		assertThat(this.memory.remaining(this.key, this.waiter)).isEmpty();
		assertThat(this.memory.tryTake(this.key, LeaseHolder.of("next"), TERM)).isInstanceOf(Taken.class);
	}

	@Test
	@DisplayName("AsyncLeaseHost cancellation, Operation 11: a take cancelled as its grant is made gives the grant back by the time cancel returns")
	void cancelWhileGrantIsMadeGivesItBack() throws Exception {
		SlowAnswers slow = new SlowAnswers(this.memory);
		AsyncLeaseHost view = AsyncLeaseHost.onThreads(slow);
		CompletableFuture<TakeResult> take = view.take(this.key, this.waiter, TERM);
		assertThat(slow.granted.await(WITHIN.toMillis(), TimeUnit.MILLISECONDS)).as("the grant is made").isTrue();
		assertThat(take.cancel(false)).as("cancelled before the host answered").isTrue();
		assertThat(this.memory.grant(this.key)).as("nothing stands for the caller who cancelled").isEmpty();
		assertThat(this.memory.tryTake(this.key, LeaseHolder.of("next"), TERM)).isInstanceOf(Taken.class);
	}

	@Test
	@DisplayName("AsyncLeaseHost rules: a release is answered while many takes wait, and hands the key to the first of them (Operation 11, Non-goal 3)")
	void releaseIsAnsweredWhileManyTakesWait() throws Exception {
		AsyncLeaseHost view = AsyncLeaseHost.onThreads(this.memory);
		assertThat(this.memory.tryTake(this.key, this.holder, TERM)).isInstanceOf(Taken.class);
		List<CompletableFuture<TakeResult>> takes = new ArrayList<>();
		List<LeaseHolder> waiters = new ArrayList<>();
		for (int i = 0; i < 64; i++) {
			LeaseHolder next = LeaseHolder.of("waiter-" + i);
			waiters.add(next);
			takes.add(view.take(this.key, next, TERM));
			awaitQueued(this.memory, next);
		}
		ReleaseResult released = view.release(this.key, this.holder).get(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(released).isInstanceOf(Released.class);
		TakeResult first = takes.get(0).get(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(first).isInstanceOf(Taken.class);
		assertThat(((Taken) first).lease().holder()).isEqualTo(waiters.get(0));
		for (int i = 1; i < takes.size(); i++) {
			assertThat(takes.get(i)).isNotDone();
			takes.get(i).cancel(false);
		}
		assertThat(view.release(this.key, waiters.get(0)).get(WITHIN.toMillis(), TimeUnit.MILLISECONDS))
			.isInstanceOf(Released.class);
		assertThat(this.memory.grant(this.key)).isEmpty();
	}

	@Test
	@DisplayName("AsyncLeaseHost rules: bad arguments complete the future with IllegalArgumentException and take nothing")
	void takeWithBadArgumentsFailsTheFuture() {
		AsyncLeaseHost view = AsyncLeaseHost.onThreads(this.memory);
		CompletableFuture<TakeResult> take = view.take(this.key, this.holder, Duration.ZERO);
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> take.get(WITHIN.toMillis(), TimeUnit.MILLISECONDS))
			.withCauseInstanceOf(IllegalArgumentException.class);
		assertThat(this.memory.grant(this.key)).isEmpty();
	}

	// The holder waits for the key once a try take of its own is refused as re-entrant.
	private void awaitQueued(LeaseHost host, LeaseHolder queued) {
		long deadline = System.nanoTime() + WITHIN.toNanos();
		while (true) {
			try {
				host.tryTake(this.key, queued, TERM);
			}
			catch (ReentrantTakeException ex) {
				return;
			}
			assertThat(System.nanoTime() - deadline).as("queued within " + WITHIN).isNegative();
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
		}
	}

	/**
	 * A host whose take answers a grant one slow round trip after making it, as a remote
	 * store does, and through an interrupt; the round trip starts only once the caller
	 * gave up, so that the cancel always comes first.
	 */
	private static final class SlowAnswers implements LeaseHost {

		private static final long ROUND_TRIP = TimeUnit.MILLISECONDS.toNanos(300);

		private final LeaseHost host;

		final CountDownLatch granted = new CountDownLatch(1);

		SlowAnswers(LeaseHost host) {
			this.host = host;
		}

		@Override
		public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
			TakeResult result = this.host.take(key, holder, duration);
			this.granted.countDown();
			// The answer starts back only once the caller gave up (the interrupt of a
			// cancel), and takes one round trip.
			boolean interrupted = pause(TimeUnit.SECONDS.toNanos(30), true);
			interrupted |= pause(ROUND_TRIP, false);
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
			return result;
		}

		// Whether the thread was interrupted during the pause.
		private static boolean pause(long nanos, boolean untilInterrupted) {
			long until = System.nanoTime() + nanos;
			boolean interrupted = false;
			while (System.nanoTime() - until < 0 && !(interrupted && untilInterrupted)) {
				LockSupport.parkNanos(until - System.nanoTime());
				interrupted |= Thread.interrupted();
			}
			return interrupted;
		}

		@Override
		public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
			return this.host.tryTake(key, holder, duration);
		}

		@Override
		public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
			return this.host.remaining(key, holder);
		}

		@Override
		public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
			return this.host.release(key, holder);
		}

		@Override
		public GrantsPage grants(@Nullable String cursor, int limit) {
			return this.host.grants(cursor, limit);
		}

		@Override
		public Optional<Lease> grant(LeaseKey key) {
			return this.host.grant(key);
		}

	}

}
