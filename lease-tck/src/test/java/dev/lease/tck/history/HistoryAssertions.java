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

package dev.lease.tck.history;

import java.time.Duration;
import java.util.Collection;
import java.util.UUID;
import java.util.concurrent.Callable;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.Taken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How a test that drove a host through a {@link RecordingLeaseHost} ends: the recorded
 * history is one the lease atom allows, and nothing the test wrote is left behind.
 *
 * @author Lease contributors
 */
public final class HistoryAssertions {

	/** The most a server on this machine's clock may differ from this JVM's. */
	public static final Duration SKEW = Duration.ofMillis(10);

	/** How much later than its bound a take may answer on a loaded 2-core machine. */
	public static final Duration TOLERANCE = Duration.ofSeconds(2);

	// How much earlier one take must be called than another to count as arriving first.
	private static final Duration ARRIVAL_SLACK = Duration.ofMillis(150);

	private HistoryAssertions() {
	}

	/**
	 * Fail unless the key is free: another holder takes it, and releases it so that
	 * nothing is left.
	 * @param host the host, usually a {@link RecordingLeaseHost}
	 * @param key the key
	 */
	public static void assertFreeForAnother(LeaseHost host, LeaseKey key) {
		LeaseHolder next = LeaseHolder.of("next-" + UUID.randomUUID());
		assertThat(host.tryTake(key, next, Duration.ofSeconds(30))).as("a free key's try take")
			.isInstanceOf(Taken.class);
		assertThat(host.release(key, next)).isInstanceOf(Released.class);
	}

	/**
	 * Fail unless the history recorded so far is one the lease atom allows.
	 * @param recording the recording host
	 */
	public static void assertAllowed(RecordingLeaseHost recording) {
		new HistoryChecker(SKEW, TOLERANCE, ARRIVAL_SLACK).check(recording.history());
	}

	/**
	 * Fail unless the history is one the lease atom allows and, within the given time,
	 * nothing is left behind.
	 * @param recording the recording host
	 * @param within how long the leftovers may take to go: the longest term still
	 * standing, and a tolerance
	 * @param leftovers what the test left behind (grants, Redis keys, table rows)
	 */
	public static void assertAllowedAndNothingLeft(RecordingLeaseHost recording, Duration within,
			Callable<? extends Collection<?>> leftovers) {
		assertAllowed(recording);
		await("nothing left behind").atMost(within)
			.pollInterval(Duration.ofMillis(50))
			.untilAsserted(() -> assertThat(leftovers.call()).as("left behind").isEmpty());
	}

}
