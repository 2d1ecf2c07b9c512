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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Measures operations per second of a pair (a take and a release, or their floor) run in
 * a loop on a number of threads, each on its own keys, after a warm-up.
 *
 * @author Lease contributors
 */
final class PairThroughput {

	private PairThroughput() {
	}

	static double pairsPerSecond(int threads, long warmupMillis, long measureMillis, Pair pair)
			throws InterruptedException {
		LongAdder count = new LongAdder();
		CountDownLatch done = new CountDownLatch(threads);
		long start = System.nanoTime();
		long measureFrom = start + warmupMillis * 1_000_000L;
		long end = measureFrom + measureMillis * 1_000_000L;
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int thread = t;
			Thread worker = new Thread(() -> {
				try {
					long index = 0;
					long now;
					while ((now = System.nanoTime()) < end) {
						pair.run(thread, index++);
						if (now >= measureFrom) {
							count.increment();
						}
					}
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
				finally {
					done.countDown();
				}
			});
			worker.start();
			workers.add(worker);
		}
		done.await();
		return count.sum() / (measureMillis / 1000.0);
	}

	// Figures beside their floor on a shared machine: they take turns with it in short
	// rounds, so that a burst of load elsewhere lands on all sides of a round, and for
	// each figure the round whose ratio to that round's floor is the median counts, so
	// that one lucky or unlucky round does not decide it.
	static List<Beside> besideAll(int threads, int rounds, Pair floor, List<Pair> figures) throws InterruptedException {
		pairsPerSecond(threads, 0, 2000, floor);
		for (Pair figure : figures) {
			pairsPerSecond(threads, 0, 2000, figure);
		}
		double[] floors = new double[rounds];
		double[][] measured = new double[figures.size()][rounds];
		for (int round = 0; round < rounds; round++) {
			floors[round] = pairsPerSecond(threads, 500, 2000, floor);
			for (int f = 0; f < figures.size(); f++) {
				measured[f][round] = pairsPerSecond(threads, 500, 2000, figures.get(f));
			}
		}
		List<Beside> besides = new ArrayList<>();
		for (double[] figure : measured) {
			System.out.printf(Locale.ROOT, "  %d thread(s), rounds (figure / floor): %s%n", threads,
					IntStream.range(0, rounds)
						.mapToObj((round) -> String.format(Locale.ROOT, "%.0f / %.0f", figure[round], floors[round]))
						.collect(Collectors.joining(", ")));
			Integer[] byRatio = IntStream.range(0, rounds).boxed().toArray(Integer[]::new);
			Arrays.sort(byRatio, Comparator.comparingDouble((round) -> figure[round] / floors[round]));
			int median = byRatio[rounds / 2];
			besides.add(new Beside(figure[median], floors[median]));
		}
		return besides;
	}

	/**
	 * The pairs per second of a figure and of its floor in one round.
	 *
	 * @param figure the figure
	 * @param floor its floor
	 */
	record Beside(double figure, double floor) {

	}

	/**
	 * One pair, run by one thread; {@code index} counts that thread's pairs so a pair can
	 * pick its key.
	 */
	interface Pair {

		void run(int thread, long index) throws Exception;

	}

}
