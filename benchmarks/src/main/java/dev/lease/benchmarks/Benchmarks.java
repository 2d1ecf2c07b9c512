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

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs the named benchmark suites and prints one table. Arguments: a comma-separated list
 * of suite names, or {@code all} for every suite but {@code scale}, which prints tables
 * of its own.
 *
 * @author Lease contributors
 */
public final class Benchmarks {

	private Benchmarks() {
	}

	/**
	 * Run the suites named in the first argument.
	 * @param args the suites, comma separated, or {@code all}
	 * @throws Exception if a suite fails
	 */
	public static void main(String[] args) throws Exception {
		Map<String, Consumer<BenchmarkTable>> suites = new LinkedHashMap<>();
		suites.put("memory", InMemoryBenchmarks::run);
		suites.put("leased", LeasedBenchmarks::run);
		suites.put("redis", RedisBenchmarks::run);
		suites.put("jdbc", JdbcBenchmarks::run);
		suites.put("scale", ScaleBenchmarks::run);
		String selection = (args.length > 0) ? args[0] : "all";
		// scale runs for many minutes, so only when named
		List<String> names = selection.equals("all") ? List.of("memory", "leased", "redis", "jdbc")
				: Arrays.asList(selection.split(","));
		BenchmarkTable table = new BenchmarkTable();
		for (String name : names) {
			Consumer<BenchmarkTable> suite = suites.get(name.trim());
			if (suite == null) {
				throw new IllegalArgumentException("Unknown suite '" + name + "'; known: " + suites.keySet());
			}
			suite.accept(table);
		}
		table.print(System.out);
		table.cost().print(System.out);
	}

}
