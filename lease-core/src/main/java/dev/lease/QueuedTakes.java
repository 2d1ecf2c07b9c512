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

package dev.lease;

import java.time.Instant;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * How many takes wait for one key, as a host read them at one moment
 * ({@link LeaseHost#waiting(LeaseKey)}): a snapshot for operators, stale as soon as it is
 * answered.
 *
 * @param count how many takes stand in the key's queue, none of them granted yet; a take
 * whose bound passed a moment ago may be counted until it is withdrawn, on a host that
 * cannot leave it out cheaply (its documentation says so)
 * @param since when the longest-waiting of them arrived, on the host's clock, or
 * {@code null} when nobody waits, when the host does not keep arrival instants, or when
 * the longest-waiting take was queued by a release that kept none
 * @author Lease contributors
 * @since 0.1.0
 */
public record QueuedTakes(int count, @Nullable Instant since) {

	/** Nobody waits. */
	public static final QueuedTakes NONE = new QueuedTakes(0, null);

	public QueuedTakes {
		if (count < 0) {
			throw new IllegalArgumentException("'count' must not be negative, but was " + count);
		}
		if (count == 0 && since != null) {
			throw new IllegalArgumentException("'since' must be null when nobody waits");
		}
	}

	/**
	 * Return how many takes wait, without an arrival instant.
	 * @param count how many takes wait
	 * @return the snapshot
	 */
	public static QueuedTakes of(int count) {
		return (count != 0) ? new QueuedTakes(count, null) : NONE;
	}

	/**
	 * Return when the longest-waiting take arrived.
	 * @return the instant, or empty when nobody waits or the host does not keep it
	 */
	public Optional<Instant> oldestArrival() {
		return Optional.ofNullable(this.since);
	}

}
