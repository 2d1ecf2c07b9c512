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

package dev.lease.tck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.tck.history.HistoryChecker;
import dev.lease.tck.history.RecordingLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the {@link HistoryChecker}'s judgement of arrival order on recorded
 * histories: waiters proven queued one after another (each refused a second take before
 * the next is called) and then served, by hosts that keep and break Non-goal 3.
 *
 * @author Lease contributors
 */
class ArrivalOrderDetectionTests {

	private static final int WAITERS = 6;

	private static final Duration LONG = Duration.ofSeconds(30);

	private static final Duration ANSWER = Duration.ofSeconds(20);

	// The arrival margin the kit's schedule checks use, and a pause beyond it.
	private static final Duration SLACK = Duration.ofMillis(150);

	private static final Duration APART = Duration.ofMillis(200);

	private final HistoryChecker checker = new HistoryChecker(Duration.ofMillis(10), Duration.ofSeconds(2), SLACK);

	@Test
	@DisplayName("Non-goal 3: the history checker catches a host that serves the newest waiter first")
	void catchesNewestFirst() throws Exception {
		assertThat(violationsOf(BrokenHosts.servesInRankOrder((arrival) -> -arrival)))
			.hasSize(WAITERS * (WAITERS - 1) / 2)
			.allMatch((violation) -> violation.startsWith("Non-goal 3"));
	}

	@Test
	@DisplayName("Non-goal 3: the history checker catches a host that serves the waiters in a random order")
	void catchesRandomOrder() throws Exception {
		assertThat(violationsOf(BrokenHosts.servesInRankOrder((arrival) -> new SplittableRandom(arrival).nextLong())))
			.isNotEmpty()
			.allMatch((violation) -> violation.startsWith("Non-goal 3"));
	}

	@Test
	@DisplayName("Non-goal 3: the history checker passes the same waiters served first in, first out, by the broken hosts' own queue and by the in-memory host")
	void passesArrivalOrder() throws Exception {
		assertThat(violationsOf(BrokenHosts.servesInRankOrder((arrival) -> arrival))).isEmpty();
		assertThat(violationsOf(new InMemoryLeaseHost())).isEmpty();
	}

	// A holder takes the key; each waiter's take is called once the one before it has
	// been refused a second take, the proof that it stands queued, and the checker's
	// margin has passed; then the holder
	// releases and each waiter releases as soon as it is granted.
	private List<String> violationsOf(LeaseHost host) throws Exception {
		RecordingLeaseHost recording = new RecordingLeaseHost(host);
		LeaseKey key = LeaseKey.of("arrival:" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("holder");
		assertThat(recording.tryTake(key, holder, LONG)).isInstanceOf(Taken.class);
		ExecutorService executor = Executors.newFixedThreadPool(WAITERS);
		try {
			List<Future<TakeResult>> takes = new ArrayList<>();
			for (int i = 0; i < WAITERS; i++) {
				LeaseHolder waiter = LeaseHolder.of("waiter" + i);
				takes.add(executor.submit(() -> {
					TakeResult answer = recording.take(key, waiter, LONG);
					recording.release(key, waiter);
					return answer;
				}));
				awaitQueued(recording, key, waiter);
				Thread.sleep(APART.toMillis());
			}
			recording.release(key, holder);
			for (Future<TakeResult> take : takes) {
				assertThat(take.get(ANSWER.toMillis(), TimeUnit.MILLISECONDS)).isInstanceOf(Taken.class);
			}
		}
		finally {
			executor.shutdownNow();
		}
		return this.checker.violations(recording.history());
	}

	// Held while the take has yet to reach the host; refused as reentrant once it waits.
	private static void awaitQueued(RecordingLeaseHost recording, LeaseKey key, LeaseHolder waiter)
			throws InterruptedException {
		long end = System.nanoTime() + ANSWER.toNanos();
		while (System.nanoTime() < end) {
			try {
				assertThat(recording.tryTake(key, waiter, LONG)).as("a try take while the key is held")
					.isNotInstanceOf(Taken.class);
			}
			catch (ReentrantTakeException ex) {
				return;
			}
			Thread.sleep(1);
		}
		throw new AssertionError(waiter + " was never seen queued");
	}

}
