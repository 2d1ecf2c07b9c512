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

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.QueuedTakes;

/**
 * Waits for a host's state rather than for a guessed time: a test that must act while a
 * take stands in the queue, or only once a withdrawn take has left it, asks the host.
 * These are the hooks the kit itself waits with, for tests of any host.
 *
 * @author Lease contributors
 */
public final class LeaseHostProbes {

	private static final Duration POLL = Duration.ofMillis(5);

	private LeaseHostProbes() {
	}

	/**
	 * Waits until the take of {@code holder}, started on another thread, stands in the
	 * host's queue for {@code key}: a holder that waits for a key is refused a try take
	 * (Non-goal 1). Fails if the key frees first, or if the take is not queued within
	 * {@code within}.
	 * @param host the host the take was asked of
	 * @param key the key
	 * @param holder the waiting holder
	 * @param within how long the take may need to arrive
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	public static void awaitQueued(LeaseHost host, LeaseKey key, LeaseHolder holder, Duration within)
			throws InterruptedException {
		Arrivals.awaitQueued(host, key, holder, within);
	}

	/**
	 * Waits until exactly {@code count} takes wait for {@code key}, as the host counts
	 * them ({@link LeaseHost#waiting(LeaseKey)}): after starting takes on other threads,
	 * or after withdrawing them ({@code 0}).
	 * @param host a host that counts its waiters
	 * @param key the key
	 * @param count the number of waiting takes to wait for
	 * @param within how long to wait at most
	 * @throws InterruptedException if the waiting thread is interrupted
	 * @throws AssertionError if the host cannot count its waiters, or the count is not
	 * reached within {@code within}
	 */
	public static void awaitWaiting(LeaseHost host, LeaseKey key, int count, Duration within)
			throws InterruptedException {
		long deadline = System.nanoTime() + within.toNanos();
		int seen;
		while ((seen = waiting(host, key)) != count) {
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError("expected " + count + " takes waiting for " + key + " within " + within
						+ " but " + seen + " wait");
			}
			Thread.sleep(POLL.toMillis());
		}
	}

	private static int waiting(LeaseHost host, LeaseKey key) {
		return host.waiting(key)
			.map(QueuedTakes::count)
			.orElseThrow(() -> new AssertionError("the host " + host + " cannot count the takes that wait"));
	}

}
