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

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Time the server spent on the statements of a number of pairs, by kind (the statement's
 * first word), as the server reported it.
 *
 * @author Lease contributors
 */
final class StatementTimes {

	private final Map<String, long[]> byKind = new TreeMap<>();

	private final int pairs;

	StatementTimes(int pairs) {
		this.pairs = pairs;
	}

	static String kind(String sql) {
		String text = sql.strip();
		int end = 0;
		while (end < text.length() && Character.isLetter(text.charAt(end))) {
			end++;
		}
		return (end > 0) ? text.substring(0, end).toUpperCase(Locale.ROOT) : "?";
	}

	// One statement, or one more part of the last one (PostgreSQL logs its parse, bind
	// and execute apart).
	void add(String kind, boolean statement, long nanos) {
		long[] counted = this.byKind.computeIfAbsent(kind, (name) -> new long[2]);
		if (statement) {
			counted[0]++;
		}
		counted[1] += nanos;
	}

	double microsPerStatement() {
		long statements = this.byKind.values().stream().mapToLong((counted) -> counted[0]).sum();
		long nanos = this.byKind.values().stream().mapToLong((counted) -> counted[1]).sum();
		return (statements > 0) ? nanos / 1000.0 / statements : Double.NaN;
	}

	String describe() {
		return this.byKind.entrySet()
			.stream()
			.filter((entry) -> entry.getValue()[0] > 0)
			.map((entry) -> String.format(Locale.ROOT, "%s %.2f × %.1f µs", entry.getKey(),
					entry.getValue()[0] / (double) this.pairs, entry.getValue()[1] / 1000.0 / entry.getValue()[0]))
			.collect(Collectors.joining(", "));
	}

}
