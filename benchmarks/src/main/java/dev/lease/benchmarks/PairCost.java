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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import com.sun.management.OperatingSystemMXBean;

/**
 * Runs one pair on the calling thread, after a warm-up, and measures per pair the CPU of
 * that thread and of the whole JVM (a client's I/O threads, its collector), and the
 * change of the counters a caller reads before and after.
 *
 * @author Lease contributors
 */
final class PairCost {

	// -Dbench.cost-pairs, for a loaded machine where 5,000 pairs of a database take
	// minutes.
	static final int PAIRS = Integer.getInteger("bench.cost-pairs", 5000);

	static final int WARM_UP = PAIRS * 2 / 5;

	private PairCost() {
	}

	static Measured measure(PairThroughput.Pair pair, Supplier<Map<String, Long>> counters) throws Exception {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		OperatingSystemMXBean system = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
		long index = 0;
		for (int i = 0; i < WARM_UP; i++) {
			pair.run(0, index++);
		}
		Map<String, Long> before = counters.get();
		long threadBefore = threads.getCurrentThreadCpuTime();
		long jvmBefore = system.getProcessCpuTime();
		for (int i = 0; i < PAIRS; i++) {
			pair.run(0, index++);
		}
		long threadNanos = threads.getCurrentThreadCpuTime() - threadBefore;
		long jvmNanos = system.getProcessCpuTime() - jvmBefore;
		Map<String, Long> after = counters.get();
		Map<String, Double> perPair = new LinkedHashMap<>();
		after.forEach((name, count) -> {
			double delta = (count - before.getOrDefault(name, 0L)) / (double) PAIRS;
			if (delta > 0) {
				perPair.put(name, delta);
			}
		});
		return new Measured(threadNanos / 1000.0 / PAIRS, jvmNanos / 1000.0 / PAIRS, perPair);
	}

	/**
	 * What one pair cost at the client.
	 *
	 * @param threadCpuMicros CPU of the calling thread
	 * @param jvmCpuMicros CPU of the whole JVM
	 * @param counted each counter's change, per pair, where it changed
	 */
	record Measured(double threadCpuMicros, double jvmCpuMicros, Map<String, Double> counted) {

		String describe() {
			return this.counted.entrySet()
				.stream()
				.map((entry) -> String.format(Locale.ROOT, "%.2f %s", entry.getValue(), entry.getKey()))
				.collect(Collectors.joining(", "));
		}

	}

}
