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

package dev.lease.aop;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the {@code duration} of {@code @Leased}: a whole number with a unit ({@code ns},
 * {@code us}, {@code ms}, {@code s}, {@code m}, {@code h}, {@code d}), or ISO-8601
 * ({@code PT30S}). A bare number is refused: its unit would be a guess.
 *
 * @author Lease contributors
 */
final class LeaseDurationParser {

	private static final Pattern SIMPLE = Pattern.compile("^\\s*(\\d+)\\s*(ns|us|ms|s|m|h|d)\\s*$");

	private LeaseDurationParser() {
	}

	static Duration parse(String text) {
		String trimmed = text.trim();
		if (trimmed.toUpperCase(Locale.ROOT).startsWith("P")) {
			try {
				return Duration.parse(trimmed);
			}
			catch (DateTimeParseException ex) {
				throw new IllegalArgumentException("'" + text + "' is not an ISO-8601 duration", ex);
			}
		}
		Matcher matcher = SIMPLE.matcher(trimmed.toLowerCase(Locale.ROOT));
		if (!matcher.matches()) {
			throw new IllegalArgumentException("'" + text
					+ "' is not a duration: use a whole number and a unit (ns, us, ms, s, m, h, d), e.g. 30s, or ISO-8601");
		}
		long amount = Long.parseLong(matcher.group(1));
		return switch (matcher.group(2)) {
			case "ns" -> Duration.ofNanos(amount);
			case "us" -> Duration.ofNanos(Math.multiplyExact(amount, 1000L));
			case "ms" -> Duration.ofMillis(amount);
			case "s" -> Duration.ofSeconds(amount);
			case "m" -> Duration.ofMinutes(amount);
			case "h" -> Duration.ofHours(amount);
			default -> Duration.ofDays(amount);
		};
	}

}
