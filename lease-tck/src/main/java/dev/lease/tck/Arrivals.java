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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Knowing that a take started on another thread stands in the host's queue, rather than
 * guessing how long it takes to get there, and the kit's one untimed warm-up.
 *
 * @author Lease contributors
 */
final class Arrivals {

	// Between two questions to the host while a waiter is on its way.
	private static final Duration POLL = Duration.ofMillis(5);

	// Longer than the time a waiter needs to arrive, shorter than any term the warm-up
	// would mind.
	private static final Duration WARM_UP_TERM = Duration.ofMillis(200);

	private Arrivals() {
	}

	// A holder that holds or waits for a key is refused a try take (Non-goal 1), so a
	// refusal while another holder holds the key says the waiter stands in the queue. A
	// grant instead says the key freed before the waiter arrived: it is handed back and
	// the test fails, as it would have on a late arrival.
	static void awaitQueued(LeaseHost host, LeaseKey key, LeaseHolder holder, Duration within)
			throws InterruptedException {
		long deadline = System.nanoTime() + KitGroup.ARRIVAL.plus(within).toNanos();
		while (true) {
			TryTakeResult answer;
			try {
				answer = host.tryTake(key, holder, KitGroup.LONG);
			}
			catch (ReentrantTakeException ex) {
				return;
			}
			if (answer instanceof Taken) {
				host.release(key, holder);
				throw new AssertionError("the key " + key + " freed before the take of " + holder + " waited for it");
			}
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError("the take of " + holder + " did not wait for the key " + key + " within "
						+ KitGroup.ARRIVAL.plus(within) + " (a waiting holder is refused a try take, Non-goal 1)");
			}
			Thread.sleep(POLL.toMillis());
		}
	}

	// A take that waits for a release, and one that waits for a term to pass, so that
	// the first wait in a JVM, slow on some hosts, is not one a test times.
	static void warmUp(LeaseHostConformanceKit kit) throws Exception {
		LeaseHost host = kit.host();
		ExecutorService thread = Executors.newSingleThreadExecutor();
		try {
			LeaseKey key = LeaseKey.of("tck:warm-up:" + UUID.randomUUID());
			for (Duration term : new Duration[] { KitGroup.LONG, WARM_UP_TERM }) {
				LeaseHolder holder = LeaseHolder.of("warm-up-holder:" + UUID.randomUUID());
				LeaseHolder waiter = LeaseHolder.of("warm-up-waiter:" + UUID.randomUUID());
				assertThat(host.tryTake(key, holder, term).granted()).as("warm-up try take of a free key").isPresent();
				CompletableFuture<TakeResult> take = CompletableFuture.supplyAsync(() -> {
					try {
						return host.take(key, waiter, KitGroup.LONG);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						throw new IllegalStateException(ex);
					}
				}, thread);
				// The first wait is the slow one: as long as it takes, and a waiter late
				// for the short term takes the free key, which warms up as well.
				if (term.equals(KitGroup.LONG)) {
					awaitQueued(host, key, waiter, Duration.ofMinutes(1));
					host.release(key, holder);
				}
				assertThat(take.get(1, TimeUnit.MINUTES)).as("warm-up take").isInstanceOf(Taken.class);
				host.release(key, waiter);
			}
		}
		finally {
			thread.shutdownNow();
		}
	}

}
