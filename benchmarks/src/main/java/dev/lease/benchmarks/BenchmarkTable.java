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
 * One table of figures, each printed beside the floor the same server allows and the
 * ratio between them, and, where a peer can refuse a free key, how often it did; then the
 * cost of one pair.
 *
 * @author Lease contributors
 */
final class BenchmarkTable {

	private final List<Row> rows = new ArrayList<>();

	private final CostTable cost = new CostTable();

	/**
	 * Add a figure measured beside its floor.
	 * @param name what was measured
	 * @param unit the unit of both figures
	 * @param value the figure
	 * @param floor the floor on the same server and client, or {@code NaN} when there is
	 * none
	 */
	void add(String name, String unit, double value, double floor) {
		add(name, unit, value, floor, "—");
	}

	/**
	 * Add a figure measured beside its floor, with the refusals of free keys it met.
	 * @param name what was measured
	 * @param unit the unit of both figures
	 * @param value the figure
	 * @param floor the floor on the same server and client
	 * @param refusals the refusals per pair, or "—" where none can be counted
	 */
	void add(String name, String unit, double value, double floor, String refusals) {
		this.rows.add(new Row(name, unit, value, floor, refusals));
	}

	/**
	 * Return the cost table, printed after this one.
	 * @return the cost table
	 */
	CostTable cost() {
		return this.cost;
	}

	void print(PrintStream out) {
		if (this.rows.isEmpty()) {
			return;
		}
		boolean refusals = this.rows.stream().anyMatch((row) -> !row.refusals().equals("—"));
		out.println();
		out.println("| benchmark | figure | floor | ratio |" + (refusals ? " refused first tries per pair |" : ""));
		out.println("|---|---:|---:|---:|" + (refusals ? "---|" : ""));
		for (Row row : this.rows) {
			out.println(row.format() + (refusals ? " " + row.refusals() + " |" : ""));
		}
		out.println();
	}

	private record Row(String name, String unit, double value, double floor, String refusals) {

		String format() {
			String floorText = Double.isNaN(this.floor) ? "—" : number(this.floor) + " " + this.unit;
			String ratio = Double.isNaN(this.floor) ? "—" : String.format(Locale.ROOT, "%.2f", this.value / this.floor);
			return "| " + this.name + " | " + number(this.value) + " " + this.unit + " | " + floorText + " | " + ratio
					+ " |";
		}

		private static String number(double value) {
			return (value >= 100) ? String.format(Locale.ROOT, "%,.0f", value)
					: String.format(Locale.ROOT, "%.3f", value);
		}

	}

}
