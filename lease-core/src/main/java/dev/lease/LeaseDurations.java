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

import java.time.Duration;

/**
 * The check every host runs on a requested duration before it touches its store. There is
 * no default duration anywhere: the caller always chooses (Non-goal 10).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseDurations {

	private LeaseDurations() {
	}

	/**
	 * Check that a duration is positive, a whole number of the host's resolution, and no
	 * longer than the longest term the host can represent.
	 * @param duration the requested duration
	 * @param resolution the host's finest representable step
	 * @param maximum the longest term the host can represent
	 * @return the duration
	 * @throws IllegalArgumentException naming what is wrong, before anything is taken
	 */
	public static Duration require(Duration duration, Duration resolution, Duration maximum) {
		Checks.notNull(duration, "duration");
		if (duration.isZero() || duration.isNegative()) {
			throw new IllegalArgumentException("'duration' must be positive, but was " + duration);
		}
		if (duration.compareTo(maximum) > 0) {
			throw new IllegalArgumentException(
					"'duration' must be at most " + maximum + " on this host, but was " + duration);
		}
		if (!isWholeMultiple(duration, resolution)) {
			throw new IllegalArgumentException("'duration' " + duration + " is finer than this host's resolution of "
					+ resolution + "; use a whole number of " + resolution);
		}
		return duration;
	}

	private static boolean isWholeMultiple(Duration duration, Duration resolution) {
		if (resolution.toNanos() <= 1) {
			return true;
		}
		long resolutionNanos = resolution.toNanos();
		return duration.getNano() % resolutionNanos == 0
				&& (resolutionNanos <= 1_000_000_000L || duration.toNanos() % resolutionNanos == 0);
	}

}
