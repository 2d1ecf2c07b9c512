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
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Taken;

/**
 * The handoff latency of a host's blocking take: a holder's grant on a fresh key, a
 * waiter's take on another thread, and the time from the holder's release, made once the
 * waiter waits, to the waiter's take returning.
 *
 * @author Lease contributors
 */
final class HandoffLatency {

	private static final Duration TERM = Duration.ofSeconds(30);

	private HandoffLatency() {
	}

	/**
	 * Measure handoffs one after another.
	 * @param host the host
	 * @param warmUp how many handoffs to run first, unmeasured
	 * @param handoffs how many to measure
	 * @param waits for a key just granted, tells when the waiter waits for it, given its
	 * thread
	 * @return the latencies in nanoseconds, sorted
	 */
	static long[] measure(LeaseHost host, int warmUp, int handoffs, Waits waits)
			throws InterruptedException, ExecutionException, TimeoutException {
		Thread[] waiterThread = new Thread[1];
		ExecutorService executor = Executors.newSingleThreadExecutor((task) -> {
			waiterThread[0] = new Thread(task, "handoff-waiter");
			return waiterThread[0];
		});
		LeaseHolder holder = LeaseHolder.of("holder");
		LeaseHolder waiter = LeaseHolder.of("waiter");
		long[] latencies = new long[handoffs];
		try {
			for (int i = -warmUp; i < handoffs; i++) {
				LeaseKey key = LeaseKey.of("handoff:" + UUID.randomUUID());
				host.tryTake(key, holder, TERM);
				BooleanSupplier waiting = waits.after(key, () -> waiterThread[0]);
				Future<Long> returned = executor.submit(() -> {
					if (!(host.take(key, waiter, TERM) instanceof Taken)) {
						throw new IllegalStateException("The waiter was not handed the key");
					}
					return System.nanoTime();
				});
				// a take that failed never waits: stop spinning so that get reports it
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
				while (!returned.isDone() && !waiting.getAsBoolean() && System.nanoTime() < deadline) {
					Thread.onSpinWait();
				}
				long released = System.nanoTime();
				host.release(key, holder);
				long latency = returned.get(10, TimeUnit.SECONDS) - released;
				host.release(key, waiter);
				if (i >= 0) {
					latencies[i] = latency;
				}
			}
		}
		finally {
			executor.shutdownNow();
		}
		Arrays.sort(latencies);
		return latencies;
	}

	/**
	 * How a benchmark sees that the waiter waits.
	 */
	@FunctionalInterface
	interface Waits {

		/**
		 * Return when the waiter waits for the key, read while spinning.
		 * @param key the key, just granted to the holder
		 * @param waiter the waiter's thread, once it has one
		 * @return whether the waiter waits
		 */
		BooleanSupplier after(LeaseKey key, Supplier<Thread> waiter);

	}

}
