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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Taken;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many threads, a few keys, random takes, try takes and releases: never two holders
 * inside one key's critical section (Invariant 1).
 *
 * @author Lease contributors
 */
abstract class ConcurrencyChecks extends KitGroup {

	private static final int THREADS = 8;

	private static final int KEYS = 3;

	private static final Duration RUN = Duration.ofMillis(1500);

	private static final Duration TERM = Duration.ofSeconds(20);

	@Test
	@DisplayName("Invariant 1.1, 1.2: eight threads taking, try taking and releasing a few keys never have two holders inside one key")
	void neverTwoHoldersInsideOneKey() throws Exception {
		List<LeaseKey> keys = new ArrayList<>();
		List<AtomicInteger> inside = new ArrayList<>();
		for (int i = 0; i < KEYS; i++) {
			keys.add(newKey());
			inside.add(new AtomicInteger());
		}
		AtomicInteger overlaps = new AtomicInteger();
		AtomicLong grants = new AtomicLong();
		long end = System.nanoTime() + RUN.toNanos();
		ExecutorService workers = Executors.newFixedThreadPool(THREADS);
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				LeaseHolder holder = newHolder("worker" + t);
				running.add(workers.submit(() -> {
					ThreadLocalRandom random = ThreadLocalRandom.current();
					while (System.nanoTime() < end) {
						int k = random.nextInt(KEYS);
						LeaseKey key = keys.get(k);
						int operation = random.nextInt(3);
						if (operation == 2) {
							// A release by a party that holds nothing here must change
							// nothing.
							assertThat(host().release(key, holder)).isInstanceOf(NotHeld.class);
							continue;
						}
						boolean taken = (operation == 0) ? host().take(key, holder, TERM) instanceof Taken
								: host().tryTake(key, holder, TERM) instanceof Taken;
						if (taken) {
							grants.incrementAndGet();
							if (inside.get(k).incrementAndGet() != 1) {
								overlaps.incrementAndGet();
							}
							Thread.onSpinWait();
							inside.get(k).decrementAndGet();
							host().release(key, holder);
						}
					}
					return null;
				}));
			}
			for (Future<?> worker : running) {
				worker.get();
			}
		}
		finally {
			workers.shutdownNow();
		}
		assertThat(overlaps).as("two holders inside one key's critical section").hasValue(0);
		assertThat(grants.get()).as("grants made").isPositive();
	}

}
