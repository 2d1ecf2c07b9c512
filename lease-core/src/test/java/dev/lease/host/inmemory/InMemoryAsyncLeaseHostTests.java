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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.AsyncLeaseHost;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.Unavailable;
import dev.lease.host.TakeAnswer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link InMemoryLeaseHost#async()}: waiters without a thread in the key's one
 * queue.
 *
 * @author Lease contributors
 */
class InMemoryAsyncLeaseHostTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static final Duration WITHIN = Duration.ofSeconds(10);

	private static final int WAITERS = 200;

	private final InMemoryLeaseHost host = new InMemoryLeaseHost();

	private final AsyncLeaseHost view = this.host.async();

	private final LeaseKey key = LeaseKey.of("async-" + UUID.randomUUID());

	private final LeaseHolder holder = LeaseHolder.of("holder");

	@Test
	@DisplayName("AsyncLeaseHost: takes that wait hold no thread each, and a release hands the key to the first (Operation 11, Non-goal 3)")
	void takesThatWaitHoldNoThread() throws Exception {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		assertThat(this.host.tryTake(this.key, this.holder, TERM)).isInstanceOf(Taken.class);
		int before = threads.getThreadCount();
		List<CompletableFuture<TakeResult>> takes = new ArrayList<>();
		for (int i = 0; i < WAITERS; i++) {
			takes.add(this.view.take(this.key, LeaseHolder.of("waiter-" + i), TERM));
		}
		for (int i = 0; i < WAITERS; i++) {
			awaitQueued(LeaseHolder.of("waiter-" + i));
		}
		assertThat(threads.getThreadCount() - before).as("threads started for " + WAITERS + " waiting takes")
			.isLessThan(WAITERS / 10);
		assertThat(this.view.release(this.key, this.holder).get()).isInstanceOf(Released.class);
		assertThat(takes.get(0).get(WITHIN.toMillis(), TimeUnit.MILLISECONDS)).isInstanceOf(Taken.class);
		takes.subList(1, WAITERS).forEach((take) -> assertThat(take).isNotDone());
		takes.forEach((take) -> take.cancel(false));
		assertThat(this.host.release(this.key, LeaseHolder.of("waiter-0"))).isInstanceOf(Released.class);
		assertThat(this.host.grant(this.key)).isEmpty();
		assertThat(this.host.storedKeys()).isZero();
	}

	@Test
	@DisplayName("Non-goal 3: waiters of both views stand in one queue, in arrival order")
	void blockingAndAsyncWaitersShareArrivalOrder() throws Exception {
		assertThat(this.host.tryTake(this.key, this.holder, TERM)).isInstanceOf(Taken.class);
		LeaseHolder first = LeaseHolder.of("blocking-first");
		LeaseHolder second = LeaseHolder.of("async-second");
		LeaseHolder third = LeaseHolder.of("blocking-third");
		CompletableFuture<TakeResult> firstTake = blockingTake(first);
		awaitQueued(first);
		CompletableFuture<TakeResult> secondTake = this.view.take(this.key, second, TERM);
		awaitQueued(second);
		CompletableFuture<TakeResult> thirdTake = blockingTake(third);
		awaitQueued(third);
		this.host.release(this.key, this.holder);
		assertThat(holderOf(firstTake)).isEqualTo(first);
		assertThat(secondTake).isNotDone();
		this.host.release(this.key, first);
		assertThat(holderOf(secondTake)).isEqualTo(second);
		this.view.release(this.key, second).get();
		assertThat(holderOf(thirdTake)).isEqualTo(third);
		this.host.release(this.key, third);
	}

	@Test
	@DisplayName("Operation 2: a waiter is handed the key at the holder's instant with nobody asking, granted as of that instant")
	void waiterIsHandedTheKeyAtTheHoldersInstant() throws Exception {
		Lease held = ((Taken) this.host.tryTake(this.key, this.holder, Duration.ofMillis(300))).lease();
		LeaseHolder waiter = LeaseHolder.of("waiter");
		Taken taken = (Taken) this.view.take(this.key, waiter, TERM).get(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(taken.lease().expiresAt()).isEqualTo(held.expiresAt().plus(TERM));
	}

	@Test
	@DisplayName("Operation 4, Non-goal 4: a waiter whose bound passes while another holds the key is answered unavailable")
	void waiterPastItsBoundIsUnavailable() throws Exception {
		// The second waiter's bound is the holder's instant only if it arrives before
		// that instant; a machine that delays its arrival past it gives it the first
		// waiter's instant instead. Such a round proves nothing and is run again with a
		// term four times as long, on a key of its own.
		for (Duration term = Duration.ofMillis(300);; term = term.multipliedBy(4)) {
			LeaseKey key = LeaseKey.of("async-" + UUID.randomUUID());
			Lease held = ((Taken) this.host.tryTake(key, this.holder, term)).lease();
			LeaseHolder first = LeaseHolder.of("first");
			LeaseHolder second = LeaseHolder.of("second");
			CompletableFuture<TakeResult> firstTake = this.view.take(key, first, TERM);
			awaitQueued(key, first, firstTake);
			CompletableFuture<TakeResult> secondTake = this.view.take(key, second, TERM);
			awaitQueued(key, second, secondTake);
			if (secondTake.isDone() || Instant.now().isBefore(held.expiresAt())) {
				assertThat(holderOf(firstTake)).isEqualTo(first);
				assertThat(secondTake.get(WITHIN.toMillis(), TimeUnit.MILLISECONDS)).isInstanceOf(Unavailable.class);
				this.host.release(key, first);
				return;
			}
			assertThat(term).as("a term within which this machine queues two waiters").isLessThan(WITHIN);
			secondTake.cancel(false);
			this.host.release(key, holderOf(firstTake));
		}
	}

	@Test
	@DisplayName("AsyncLeaseHost cancellation, Operation 11: a cancelled waiter is withdrawn when cancel returns and never handed the key")
	void cancelWhileTakeWaitsWithdrawsIt() throws Exception {
		assertThat(this.host.tryTake(this.key, this.holder, TERM)).isInstanceOf(Taken.class);
		LeaseHolder waiter = LeaseHolder.of("waiter");
		CompletableFuture<TakeResult> take = this.view.take(this.key, waiter, TERM);
		assertThat(take.cancel(false)).isTrue();
		this.host.release(this.key, this.holder);
		assertThat(this.host.grant(this.key)).isEmpty();
		assertThat(this.host.storedKeys()).isZero();
	}

	@Test
	@DisplayName("AsyncLeaseHost cancellation, Operation 11: a take cancelled as a release hands it the key leaves nothing standing for it")
	void cancelAsTheKeyIsHandedLeavesNothingStanding() throws Exception {
		LeaseHolder waiter = LeaseHolder.of("waiter");
		for (int i = 0; i < 200; i++) {
			assertThat(this.host.tryTake(this.key, this.holder, TERM)).isInstanceOf(Taken.class);
			CompletableFuture<TakeResult> take = this.view.take(this.key, waiter, TERM);
			CountDownLatch start = new CountDownLatch(1);
			Thread releasing = new Thread(() -> {
				awaitLatch(start);
				this.host.release(this.key, this.holder);
			});
			releasing.start();
			start.countDown();
			take.cancel(false);
			releasing.join();
			if (take.isCancelled()) {
				assertThat(freeWithin(WITHIN)).as("round " + i).isTrue();
			}
			else {
				assertThat(holderOf(take)).isEqualTo(waiter);
				this.host.release(this.key, waiter);
			}
		}
		assertThat(this.host.storedKeys()).isZero();
	}

	@Test
	@DisplayName("AsyncLeaseHost cancellation, Operation 11: a waiter withdrawn after a question answered it granted gives the grant back")
	void withdrawalAfterAGrantingQuestionGivesTheGrantBack() {
		// A non-blocking take cancelled while its question is out withdraws at once, on
		// the
		// cancelling thread, and may run after the question: here in that order, on a
		// clock of the test's own.
		AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
		InMemoryLeaseHost host = new InMemoryLeaseHost(now::get);
		LeaseHolder waiter = LeaseHolder.of("waiter");
		assertThat(host.tryTake(this.key, this.holder, Duration.ofSeconds(1))).isInstanceOf(Taken.class);
		InMemoryLeaseHost.Entry entry = host.enter(this.key, waiter, TERM, true);
		long waiterId = ((TakeAnswer.Queued) entry.answer()).waiterId();
		SleepingWaiter questions = new SleepingWaiter(host, entry.state(), waiter, waiterId);
		// The holder's instant passes: the key is the waiter's, handed on by nobody.
		now.set(now.get().plusSeconds(2));
		assertThat(questions.ask(false, Long.MAX_VALUE)).isInstanceOf(TakeAnswer.Granted.class);
		questions.withdraw();
		assertThat(host.grant(this.key)).isEmpty();
		host.sleepers().unregister(entry.state(), entry.signal());
		assertThat(host.storedKeys()).isZero();
	}

	// Whether the key is free within the wait, having stood for nobody but the waiter: a
	// grant the take had taken up as it was cancelled is given back on the host's
	// scheduler, after the cancel returned.
	private boolean freeWithin(Duration wait) {
		long deadline = System.nanoTime() + wait.toNanos();
		Optional<Lease> grant = this.host.grant(this.key);
		while (grant.isPresent()) {
			assertThat(grant.get().holder()).isEqualTo(LeaseHolder.of("waiter"));
			if (System.nanoTime() - deadline > 0) {
				return false;
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
			grant = this.host.grant(this.key);
		}
		return true;
	}

	private CompletableFuture<TakeResult> blockingTake(LeaseHolder waiter) {
		return BlockingTakes.onThread(this.host, this.key, waiter, TERM);
	}

	private LeaseHolder holderOf(CompletableFuture<TakeResult> take) throws Exception {
		TakeResult result = take.get(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(result).isInstanceOf(Taken.class);
		return ((Taken) result).lease().holder();
	}

	// The holder waits for the key once a try take of its own is refused as re-entrant.
	private void awaitQueued(LeaseHolder queued) {
		awaitQueued(this.key, queued, new CompletableFuture<>());
	}

	// ... or once its take has been answered.
	private void awaitQueued(LeaseKey key, LeaseHolder queued, CompletableFuture<TakeResult> take) {
		long deadline = System.nanoTime() + WITHIN.toNanos();
		while (!take.isDone()) {
			try {
				this.host.tryTake(key, queued, TERM);
			}
			catch (ReentrantTakeException ex) {
				return;
			}
			assertThat(System.nanoTime() - deadline).as("queued within " + WITHIN).isNegative();
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
		}
	}

	private static void awaitLatch(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
