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

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The cost of one pair on one thread, which load disturbs less than throughput: round
 * trips counted at the client's driver, CPU of the client, and time the server spent per
 * statement or command, with how that time was measured.
 *
 * @author Lease contributors
 */
final class CostTable {

	private final List<Row> rows = new ArrayList<>();

	private final List<String> notes = new ArrayList<>();

	void add(Row row) {
		this.rows.add(row);
	}

	void note(String note) {
		this.notes.add(note);
	}

	void print(PrintStream out) {
		if (this.rows.isEmpty()) {
			return;
		}
		out.println(
				"| pair, 1 thread | round trips per pair (at the driver) | client CPU per pair, calling thread / JVM"
						+ " | server time per statement | server statements per pair × time each |");
		out.println("|---|---|---:|---:|---|");
		for (Row row : this.rows) {
			out.println(row.format());
		}
		out.println();
		for (String note : this.notes) {
			out.println("- " + note);
		}
		out.println();
	}

	/**
	 * One pair's cost.
	 *
	 * @param name the store and the pair
	 * @param roundTrips round trips per pair, with what they are
	 * @param threadCpuMicros CPU of the thread that ran the pairs, per pair
	 * @param jvmCpuMicros CPU of the whole client JVM, per pair
	 * @param serverMicros server time per statement or command, or {@code NaN} where it
	 * could not be measured
	 * @param byKind server statements or commands per pair, and the time each took
	 */
	record Row(String name, String roundTrips, double threadCpuMicros, double jvmCpuMicros, double serverMicros,
			String byKind) {

		String format() {
			String server = Double.isNaN(this.serverMicros) ? "—"
					: String.format(Locale.ROOT, "%.1f µs", this.serverMicros);
			return String.format(Locale.ROOT, "| %s | %s | %.1f / %.1f µs | %s | %s |", this.name, this.roundTrips,
					this.threadCpuMicros, this.jvmCpuMicros, server, this.byKind);
		}

	}

}
