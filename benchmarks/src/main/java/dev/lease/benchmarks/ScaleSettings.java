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

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The scale suite's settings, from system properties: {@code scale.waiters} (the N of
 * each row), {@code scale.grants} (standing grants), {@code scale.hosts},
 * {@code scale.max-handoffs} and {@code scale.max-seconds} (the cap of one row),
 * {@code scale.setup-seconds} (the most time spent queueing waiters),
 * {@code scale.hold-micros} (how long each waiter holds the key), {@code scale.runs},
 * {@code scale.pool} (the SQL hosts' pool size), {@code scale.redis-server} (the
 * executable started for Redis).
 *
 * @param waiters the N of each row
 * @param grants standing grants
 * @param hosts the hosts to measure
 * @param maxHandoffs the most handoffs measured in one row
 * @param maxRow the most time one row's handoffs may take
 * @param maxSetup the most time spent queueing one row's waiters
 * @param hold how long each granted waiter holds the key before releasing it
 * @param runs how many times to run every row
 * @param pool the most connections in the SQL hosts' pool
 * @param redisServer the {@code redis-server} executable
 * @author Lease contributors
 */
record ScaleSettings(List<Integer> waiters, int grants, List<String> hosts, int maxHandoffs, Duration maxRow,
		Duration maxSetup, Duration hold, int runs, int pool, String redisServer) {

	static ScaleSettings fromSystemProperties() {
		return new ScaleSettings(
				Arrays.stream(property("scale.waiters", "10,100,1000,10000").split(","))
					.map(String::trim)
					.map(Integer::valueOf)
					.toList(),
				Integer.parseInt(property("scale.grants", "1000000")),
				Arrays.stream(property("scale.hosts", "memory,redis,postgresql,mariadb").split(","))
					.map(String::trim)
					.toList(),
				Integer.parseInt(property("scale.max-handoffs", "200")),
				Duration.ofSeconds(Long.parseLong(property("scale.max-seconds", "60"))),
				Duration.ofSeconds(Long.parseLong(property("scale.setup-seconds", "300"))),
				Duration.ofNanos(Long.parseLong(property("scale.hold-micros", "0")) * 1000),
				Integer.parseInt(property("scale.runs", "1")), Integer.parseInt(property("scale.pool", "10")),
				property("scale.redis-server", "redis-server"));
	}

	private static String property(String name, String fallback) {
		String value = System.getProperty(name);
		return (value == null || value.isBlank()) ? fallback : value.trim();
	}

}
