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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.QueuedTakes;
import dev.lease.host.inmemory.InMemoryLeaseHost;

/**
 * try_take + release pairs on the in-memory host; its floor is a
 * {@code ConcurrentHashMap} put-if-absent and remove on the same keys. Then the handoff
 * latency, from a release to the sleeping waiter's take returning: the host kit's waiting
 * alone, with no store between.
 *
 * @author Lease contributors
 */
final class InMemoryBenchmarks {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static final int HANDOFFS = 20_000;

	private static final int WARM_UP = 5_000;

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
			handoff(table);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void handoff(BenchmarkTable table)
			throws InterruptedException, ExecutionException, TimeoutException {
		InMemoryLeaseHost host = new InMemoryLeaseHost();
		long[] latencies;
		try {
			// released once the waiter is queued and asleep, not while it queues
			latencies = HandoffLatency.measure(host, WARM_UP, HANDOFFS,
					(key, waiter) -> () -> host.waiting(key).orElse(QueuedTakes.NONE).count() > 0
							&& waiter.get().getState() == Thread.State.TIMED_WAITING);
		}
		finally {
			host.close();
		}
		table.add("memory handoff latency p50 (release -> waiter's take returns)", "ms", latencies[HANDOFFS / 2] / 1e6,
				Double.NaN);
		table.add("memory handoff latency p99", "ms", latencies[HANDOFFS * 99 / 100] / 1e6, Double.NaN);
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
