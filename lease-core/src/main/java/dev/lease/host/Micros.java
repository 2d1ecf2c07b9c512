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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;

/**
 * Microseconds, the unit in which a store keeps instants (since the epoch, so that no
 * time zone can shift them) and terms, converted to and from {@link Instant} and
 * {@link Duration}. A host whose resolution is one microsecond only ever converts
 * durations that {@link HostArguments} accepted, so no conversion here rounds.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class Micros {

	private Micros() {
	}

	/**
	 * Return the instant a number of microseconds after the epoch.
	 * @param micros microseconds since the epoch
	 * @return the instant
	 */
	public static Instant toInstant(long micros) {
		return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
	}

	/**
	 * Return an instant as microseconds since the epoch, dropping any finer part.
	 * @param instant the instant
	 * @return microseconds since the epoch
	 * @throws ArithmeticException if the instant is out of range
	 */
	public static long of(Instant instant) {
		return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
	}

	/**
	 * Return a term of microseconds as a duration.
	 * @param micros the term in microseconds
	 * @return the duration
	 */
	public static Duration toDuration(long micros) {
		return Duration.of(micros, ChronoUnit.MICROS);
	}

	/**
	 * Return a duration in whole microseconds, dropping any finer part.
	 * @param duration the duration
	 * @return the duration in microseconds
	 * @throws ArithmeticException if the duration is out of range
	 */
	public static long of(Duration duration) {
		return Math.addExact(Math.multiplyExact(duration.getSeconds(), 1_000_000L), duration.getNano() / 1000);
	}

	/**
	 * Return a term of microseconds in nanoseconds, as {@link System#nanoTime()} and
	 * timed waits count, saturating instead of overflowing.
	 * @param micros the term in microseconds
	 * @return the term in nanoseconds
	 */
	public static long toNanos(long micros) {
		return TimeUnit.MICROSECONDS.toNanos(micros);
	}

}
