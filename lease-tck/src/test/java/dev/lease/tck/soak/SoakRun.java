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

package dev.lease.tck.soak;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Taken;

/**
 * Runs many threads against many keys with mixed takes, try takes, remainings and
 * releases for a fixed time, counting any moment two holders stand inside one key's
 * critical section, and measuring throughput, latency and heap.
 *
 * @author Lease contributors
 */
public final class SoakRun {

	private static final Duration TERM = Duration.ofSeconds(5);

	private final int threads;

	private final int keyCount;

	private final Duration length;

	/**
	 * Create a run.
	 * @param threads the number of threads
	 * @param keyCount the number of keys
	 * @param length how long to run
	 */
	public SoakRun(int threads, int keyCount, Duration length) {
		this.threads = threads;
		this.keyCount = keyCount;
		this.length = length;
	}

	/**
	 * Run against a host.
	 * @param host the host
	 * @return what the run measured
	 * @throws Exception if a worker failed
	 */
	public SoakReport run(LeaseHost host) throws Exception {
		String prefix = "soak:" + UUID.randomUUID() + ":";
		List<LeaseKey> keys = new ArrayList<>();
		for (int i = 0; i < this.keyCount; i++) {
			keys.add(LeaseKey.of(prefix + i));
		}
		AtomicIntegerArray inside = new AtomicIntegerArray(this.keyCount);
		AtomicInteger overlaps = new AtomicInteger();
		LongAdder operations = new LongAdder();
		long heapBefore = usedHeapAfterGc();
		long end = System.nanoTime() + this.length.toNanos();
		ExecutorService executor = Executors.newFixedThreadPool(this.threads);
		List<Future<long[]>> workers = new ArrayList<>();
		long started = System.nanoTime();
		for (int t = 0; t < this.threads; t++) {
			LeaseHolder holder = LeaseHolder.of("soak-" + t + ":" + UUID.randomUUID());
			workers.add(executor.submit(() -> work(host, holder, keys, inside, overlaps, operations, end)));
		}
		long[] latencies = new long[0];
		for (Future<long[]> worker : workers) {
			long[] own = worker.get();
			int from = latencies.length;
			latencies = Arrays.copyOf(latencies, from + own.length);
			System.arraycopy(own, 0, latencies, from, own.length);
		}
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		executor.shutdown();
		Arrays.sort(latencies);
		Duration p50 = percentile(latencies, 0.5);
		Duration p99 = percentile(latencies, 0.99);
		Duration p999 = percentile(latencies, 0.999);
		// Drop the samples before measuring the heap: only what the host keeps should
		// remain.
		latencies = null;
		workers.clear();
		return new SoakReport(operations.sum(), took, p50, p99, p999, overlaps.get(), heapBefore, usedHeapAfterGc(),
				keys);
	}

	private static long[] work(LeaseHost host, LeaseHolder holder, List<LeaseKey> keys, AtomicIntegerArray inside,
			AtomicInteger overlaps, LongAdder operations, long end) throws InterruptedException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		long[] latencies = new long[1 << 16];
		int count = 0;
		while (System.nanoTime() < end) {
			int k = random.nextInt(keys.size());
			LeaseKey key = keys.get(k);
			long started = System.nanoTime();
			int operation = random.nextInt(4);
			boolean taken = switch (operation) {
				case 0 -> host.take(key, holder, TERM) instanceof Taken;
				case 1 -> host.tryTake(key, holder, TERM) instanceof Taken;
				case 2 -> host.remaining(key, holder).isPresent();
				default -> {
					host.release(key, holder);
					yield false;
				}
			};
			operations.increment();
			if (count < latencies.length) {
				latencies[count++] = System.nanoTime() - started;
			}
			if (taken && operation < 2) {
				if (inside.incrementAndGet(k) != 1) {
					overlaps.incrementAndGet();
				}
				inside.decrementAndGet(k);
				host.release(key, holder);
			}
		}
		return Arrays.copyOf(latencies, count);
	}

	private static Duration percentile(long[] sorted, double fraction) {
		return (sorted.length != 0)
				? Duration.ofNanos(sorted[(int) Math.min(sorted.length - 1, sorted.length * fraction)]) : Duration.ZERO;
	}

	private static long usedHeapAfterGc() {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		System.gc();
		return memory.getHeapMemoryUsage().getUsed();
	}

	/**
	 * What a soak run measured.
	 *
	 * @param operations operations made
	 * @param took how long the run took
	 * @param p50 median operation latency
	 * @param p99 99th percentile operation latency
	 * @param p999 99.9th percentile operation latency
	 * @param overlaps moments two holders stood inside one key
	 * @param heapBefore used heap after a collection, before the run
	 * @param heapAfter used heap after a collection, after the run
	 * @param keys the keys used
	 */
	public record SoakReport(long operations, Duration took, Duration p50, Duration p99, Duration p999, int overlaps,
			long heapBefore, long heapAfter, List<LeaseKey> keys) {

		/**
		 * Return one line for the log and the README.
		 * @param host the host's name
		 * @return the line
		 */
		public String line(String host) {
			return String.format(Locale.ROOT,
					"| %s | %,d ops in %ds | %,.0f ops/s | %.2f ms | %.2f ms | %.2f ms | %d | %,d KiB → %,d KiB |",
					host, this.operations, this.took.toSeconds(), this.operations / (this.took.toNanos() / 1e9),
					this.p50.toNanos() / 1e6, this.p99.toNanos() / 1e6, this.p999.toNanos() / 1e6, this.overlaps,
					this.heapBefore / 1024, this.heapAfter / 1024);
		}

	}

}
