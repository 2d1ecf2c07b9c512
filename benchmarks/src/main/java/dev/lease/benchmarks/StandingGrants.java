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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.lease.GrantsPage;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Taken;

/**
 * Standing grants at scale: the store's bytes per grant and the time to list one page of
 * them through the host's listing API.
 *
 * @author Lease contributors
 */
final class StandingGrants {

	static final int PAGE = 100;

	private static final int PAGE_SAMPLES = 20;

	private static final int THREADS = 8;

	private static final Duration TERM = Duration.ofHours(2);

	private StandingGrants() {
	}

	static Row run(ScaleStore store, int grants) throws InterruptedException, ExecutionException {
		store.clear();
		LeaseHost host = store.host();
		long before = store.storedBytes();
		long start = System.nanoTime();
		int[] taken = fill(host, grants);
		double fillSeconds = (System.nanoTime() - start) / 1e9;
		long after = store.storedBytes();
		int standing = Arrays.stream(taken).sum();
		host.grants(null, PAGE);
		long[] nanos = new long[PAGE_SAMPLES];
		int listed = 0;
		String cursor = null;
		// consecutive pages of one pass, each from the cursor the one before answered
		for (int i = 0; i < PAGE_SAMPLES; i++) {
			long pageStart = System.nanoTime();
			GrantsPage page = host.grants(cursor, PAGE);
			nanos[i] = System.nanoTime() - pageStart;
			listed += page.grants().size();
			cursor = page.next();
		}
		listed /= PAGE_SAMPLES;
		Arrays.sort(nanos);
		store.clear();
		return new Row(store.name(), standing, fillSeconds, (after - before) / (double) standing,
				nanos[PAGE_SAMPLES / 2 - 1] / 1e6, nanos[PAGE_SAMPLES - 1] / 1e6, listed);
	}

	private static int[] fill(LeaseHost host, int grants) throws InterruptedException, ExecutionException {
		LeaseHolder holder = LeaseHolder.of("scale-standing");
		int[] taken = new int[THREADS];
		ExecutorService executor = Executors.newFixedThreadPool(THREADS);
		try {
			CompletableFuture<?>[] parts = new CompletableFuture<?>[THREADS];
			for (int p = 0; p < THREADS; p++) {
				int part = p;
				parts[p] = CompletableFuture.runAsync(() -> {
					for (int i = part; i < grants; i += THREADS) {
						if (host.tryTake(LeaseKey.of("scale-grant:" + i), holder, TERM) instanceof Taken) {
							taken[part]++;
						}
					}
				}, executor);
			}
			CompletableFuture.allOf(parts).get();
		}
		finally {
			executor.shutdownNow();
		}
		return taken;
	}

	/**
	 * What one standing-grants run saw.
	 *
	 * @param host the host's name
	 * @param grants grants standing
	 * @param fillSeconds time to take them all, on 8 threads
	 * @param bytesPerGrant store bytes per grant
	 * @param pageMedianMillis median time of one page
	 * @param pageMaxMillis slowest of the timed pages
	 * @param listed grants on the page
	 */
	record Row(String host, int grants, double fillSeconds, double bytesPerGrant, double pageMedianMillis,
			double pageMaxMillis, int listed) {

	}

}
