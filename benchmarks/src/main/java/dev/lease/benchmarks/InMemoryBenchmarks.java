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

package dev.lease.benchmarks;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.host.inmemory.InMemoryLeaseHost;

/**
 * try_take + release pairs on the in-memory host; its floor is a
 * {@code ConcurrentHashMap} put-if-absent and remove on the same keys.
 *
 * @author Lease contributors
 */
final class InMemoryBenchmarks {

	private static final Duration TERM = Duration.ofSeconds(30);

	private InMemoryBenchmarks() {
	}

	static void run(BenchmarkTable table) {
		try {
			for (int threads : new int[] { 1, 8 }) {
				InMemoryLeaseHost host = new InMemoryLeaseHost();
				LeaseKey[][] keys = keys(threads);
				LeaseHolder holder = LeaseHolder.of("benchmark");
				double pairs = PairThroughput.pairsPerSecond(threads, 1000, 3000, (thread, index) -> {
					LeaseKey key = keys[thread][(int) (index & 1023)];
					host.tryTake(key, holder, TERM);
					host.release(key, holder);
				});
				ConcurrentHashMap<LeaseKey, LeaseHolder> map = new ConcurrentHashMap<>();
				double floor = PairThroughput.pairsPerSecond(threads, 1000, 3000, (thread, index) -> {
					LeaseKey key = keys[thread][(int) (index & 1023)];
					map.putIfAbsent(key, holder);
					map.remove(key, holder);
				});
				table.add("memory try_take+release, " + threads + " thread(s)", "pairs/s", pairs, floor);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static LeaseKey[][] keys(int threads) {
		LeaseKey[][] keys = new LeaseKey[threads][1024];
		for (int t = 0; t < threads; t++) {
			for (int i = 0; i < 1024; i++) {
				keys[t][i] = LeaseKey.of("bench:" + t + ":" + i);
			}
		}
		return keys;
	}

}
