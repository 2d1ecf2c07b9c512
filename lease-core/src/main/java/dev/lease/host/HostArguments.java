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

package dev.lease.host;

import java.time.Duration;

import dev.lease.LeaseDurations;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;

/**
 * The argument checks a host runs before it touches its store, so that every host refuses
 * the same arguments with the same messages. There is no default duration anywhere: the
 * caller always chooses (Non-goal 10).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class HostArguments {

	/**
	 * The longest term our hosts represent: a century.
	 */
	public static final Duration DEFAULT_MAXIMUM = Duration.ofDays(36_500);

	private final Duration resolution;

	private final Duration maximum;

	private HostArguments(Duration resolution, Duration maximum) {
		this.resolution = resolution;
		this.maximum = maximum;
	}

	/**
	 * Return the checks of a host with the given resolution and longest term.
	 * @param resolution the host's finest representable step, such as one microsecond
	 * @param maximum the longest term the host can represent
	 * @return the checks
	 */
	public static HostArguments of(Duration resolution, Duration maximum) {
		if (resolution == null || resolution.isZero() || resolution.isNegative()) {
			throw new IllegalArgumentException("'resolution' must be positive, but was " + resolution);
		}
		if (maximum == null || maximum.compareTo(resolution) < 0) {
			throw new IllegalArgumentException("'maximum' must be at least the resolution, but was " + maximum);
		}
		return new HostArguments(resolution, maximum);
	}

	/**
	 * Check the arguments of {@code take} and {@code tryTake}: a key, a holder, and a
	 * duration that is positive, a whole number of the host's resolution and no longer
	 * than its longest term.
	 * @param key the key
	 * @param holder the holder
	 * @param duration the requested duration
	 * @return the duration
	 * @throws IllegalArgumentException naming what is wrong, before anything is taken
	 */
	public Duration requireTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		requireKeyAndHolder(key, holder);
		return LeaseDurations.require(duration, this.resolution, this.maximum);
	}

	/**
	 * Check the arguments of {@code remaining} and {@code release}: a key and a holder.
	 * @param key the key
	 * @param holder the holder
	 * @throws IllegalArgumentException naming the missing argument
	 */
	public static void requireKeyAndHolder(LeaseKey key, LeaseHolder holder) {
		requireKey(key);
		notNull(holder, "holder");
	}

	/**
	 * Check the argument of {@code grant}: a key.
	 * @param key the key
	 * @throws IllegalArgumentException if the key is missing
	 */
	public static void requireKey(LeaseKey key) {
		notNull(key, "key");
	}

	/**
	 * Check the argument of {@code grants}: a positive number of grants.
	 * @param limit the most grants to answer
	 * @return the limit
	 * @throws IllegalArgumentException if the limit is not positive
	 */
	public static int requireLimit(int limit) {
		if (limit <= 0) {
			throw new IllegalArgumentException("'limit' must be positive, but was " + limit);
		}
		return limit;
	}

	// The host kit's one null check, with the message every host gives.
	static <T> T notNull(T value, String name) {
		if (value == null) {
			throw new IllegalArgumentException("'" + name + "' must not be null");
		}
		return value;
	}

}
