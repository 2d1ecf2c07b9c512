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

package dev.lease.host.redis;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.lease.AsyncLeaseHost;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link RedisLeaseHost#async()} through Lettuce, whose waiting takes hold no
 * thread: many takes waiting on one key (the conformance kit runs through
 * {@code RedisAsyncLeaseHostConformanceIntegrationTests}).
 *
 * @author Lease contributors
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisAsyncLeaseHostIntegrationTests {

	private static final int TAKES = 10_000;

	private static final int MOST_THREADS = 50;

	private RedisTestServer server;

	private RedisLeaseHost host;

	@BeforeAll
	void startHost() {
		// A server of its own, never the shared one LEASE_TEST_REDIS_URL names: the order
		// checked is the order Redis records the takes' arrivals in, which is their send
		// order only while the server keeps the script. A SCRIPT FLUSH by anyone else on
		// a
		// shared server (this module's script-cache tests do one) refuses the takes then
		// in
		// flight with NOSCRIPT; each is sent again as EVAL when its refusal is read, and
		// a
		// take sent after that reaches Redis first (Non-goal 3: arrival order as the host
		// records arrivals).
		this.server = RedisTestServer.startEmbedded(RedisTestServer.freePort(), List.of());
		String prefix = "lease-async-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		this.host = RedisLeaseHost.builder(this.server.lettuce()).keyPrefix(prefix).build();
	}

	@AfterAll
	void stopHost() {
		this.host.close();
		this.server.close();
	}

	@Test
	@DisplayName("Operations 1-3, Invariant 4: 10,000 asynchronous takes waiting on one key are served in arrival order, with fewer than 50 live threads in the JVM")
	void manyAsyncTakesOnOneKeyAreServedInArrivalOrderOnFewThreads() throws Exception {
		AsyncLeaseHost async = this.host.async();
		LeaseKey key = LeaseKey.of("async-" + UUID.randomUUID());
		LeaseHolder first = LeaseHolder.of("first-" + UUID.randomUUID());
		// Every waiter's bound is this grant's instant: long enough to serve them all.
		assertThat(this.host.tryTake(key, first, Duration.ofMinutes(10))).isInstanceOf(Taken.class);
		ThreadCounts threads = new ThreadCounts();
		threads.start();
		List<Integer> served = new ArrayList<>();
		List<CompletableFuture<TakeResult>> takes = new ArrayList<>();
		for (int i = 0; i < TAKES; i++) {
			int arrival = i;
			LeaseHolder holder = LeaseHolder.of("waiter-" + i);
			takes.add(async.take(key, holder, Duration.ofMinutes(2)).whenComplete((result, failure) -> {
				synchronized (served) {
					served.add(arrival);
				}
				if (result instanceof Taken) {
					async.release(key, holder);
				}
			}));
		}
		// Sent on the same connection after every take: it arrives after them all.
		this.host.release(key, first);
		CompletableFuture.allOf(takes.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
		threads.stop();
		for (CompletableFuture<TakeResult> take : takes) {
			assertThat(take.join()).isInstanceOf(Taken.class);
		}
		synchronized (served) {
			assertThat(served).as("the order the takes were granted in").isSorted().hasSize(TAKES);
		}
		assertThat(threads.most()).as("the most live threads in the JVM while the takes waited")
			.isLessThan(MOST_THREADS);
	}

	@Test
	@DisplayName("Host: interruption: a take cancelled while the host's thread is busy is withdrawn before Redis answers the caller's next question, a release handing the key on included")
	void cancelledTakeIsWithdrawnBeforeTheCallersNextQuestion() throws Exception {
		AsyncLeaseHost async = this.host.async();
		LettuceAsyncLeaseHost lettuce = (LettuceAsyncLeaseHost) async;
		LeaseKey key = LeaseKey.of("async-" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
		LeaseHolder waiter = LeaseHolder.of("waiter-" + UUID.randomUUID());
		assertThat(this.host.tryTake(key, holder, Duration.ofMinutes(1))).isInstanceOf(Taken.class);
		// The take's steps run on the host's one thread: held busy, the take has not read
		// the answer that queued it when it is cancelled.
		CountDownLatch busy = new CountDownLatch(1);
		lettuce.timer().execute(() -> awaitQuietly(busy));
		try {
			CompletableFuture<TakeResult> take = async.take(key, waiter, Duration.ofMinutes(1));
			// Queued in Redis: a holder that waits for a key is refused a try take.
			await().atMost(Duration.ofSeconds(5))
				.until(() -> async.tryTake(key, waiter, Duration.ofMinutes(1))
					.handle((result,
							failure) -> failure != null && (failure instanceof ReentrantTakeException
									|| failure.getCause() instanceof ReentrantTakeException))
					.join());
			assertThat(take).isNotDone();
			assertThat(take.cancel(false)).isTrue();
			async.release(key, holder).get(5, TimeUnit.SECONDS);
			assertThat(async.remaining(key, waiter).get(5, TimeUnit.SECONDS))
				.as("the term Redis answers to the waiter that was cancelled")
				.isEmpty();
			assertThat(async.tryTake(key, LeaseHolder.of("next-" + UUID.randomUUID()), Duration.ofMinutes(1))
				.get(5, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
		}
		finally {
			busy.countDown();
		}
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(1, TimeUnit.MINUTES);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The live threads of the JVM, read every few milliseconds on a thread that counts
	 * itself.
	 */
	private static final class ThreadCounts {

		private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

		private final AtomicInteger most = new AtomicInteger();

		private final Thread reader = new Thread(this::read, "thread-counts");

		private volatile boolean reading = true;

		void start() {
			this.reader.setDaemon(true);
			this.reader.start();
		}

		void stop() throws InterruptedException {
			this.reading = false;
			this.reader.join();
		}

		int most() {
			return this.most.get();
		}

		private void read() {
			while (this.reading) {
				this.most.accumulateAndGet(this.threads.getThreadCount(), Math::max);
				try {
					Thread.sleep(5);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}

	}

}
