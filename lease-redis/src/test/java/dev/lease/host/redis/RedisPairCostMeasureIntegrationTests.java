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

package dev.lease.host.redis;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.LongConsumer;

import com.sun.management.OperatingSystemMXBean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.test.support.RedisTestServer;

/**
 * Measures, not tests, what one try_take+release pair costs on {@link RedisLeaseHost}
 * beside a plain {@code SET NX PX} and {@code DEL} through the same client, in figures
 * that the machine's load disturbs little: the server's time per command
 * ({@code INFO commandstats}, reset after a warm-up), the server's CPU per pair
 * ({@code INFO cpu}), and the client's CPU per pair (the calling thread's, and the whole
 * JVM's). On a fresh key per pair and on one key, through Lettuce and Jedis. The server
 * is the one named by {@code LEASE_TEST_REDIS_URL}, which nothing else may use meanwhile,
 * else an embedded one of its own. Runs only with {@code LEASE_MEASURE=true};
 * {@code LEASE_MEASURE_PAIRS} pairs per row (default 100,000); prints its rows.
 *
 * @author Lease contributors
 */
@Tag("measure")
@EnabledIfEnvironmentVariable(named = "LEASE_MEASURE", matches = "true")
class RedisPairCostMeasureIntegrationTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static final LeaseHolder HOLDER = LeaseHolder.of("measure-holder");

	@Test
	@DisplayName("Pair cost: server µs per command, server and client CPU per pair, host beside SET NX PX + DEL")
	void measure() throws Exception {
		int pairs = Integer.parseInt(System.getenv().getOrDefault("LEASE_MEASURE_PAIRS", "100000"));
		try (RedisTestServer server = RedisTestServer.start()) {
			for (String client : new String[] { "lettuce", "jedis" }) {
				RedisConnectionFactory factory = client.equals("lettuce") ? server.lettuce() : server.jedis();
				try (RedisLeaseHost host = RedisLeaseHost.builder(factory)
					.keyPrefix("measure:" + client + ":")
					.build()) {
					byte[] holder = HOLDER.bytes();
					long[] round = { 0 };
					for (boolean fresh : new boolean[] { true, false }) {
						String keys = fresh ? "fresh key per pair" : "one key";
						row(client + ", host try_take+release, " + keys, factory, pairs, (i) -> {
							LeaseKey key = LeaseKey.of(fresh ? "k" + round[0] + ":" + i : "one");
							host.tryTake(key, HOLDER, TERM);
							host.release(key, HOLDER);
						});
						row(client + ", SET NX PX + DEL, " + keys, factory, pairs, (i) -> {
							byte[] key = ascii(fresh ? "measure:floor:" + round[0] + ":" + i : "measure:floor:one");
							try (RedisConnection connection = factory.getConnection()) {
								// as a command: SetOption is deprecated from Spring Data
								// Redis 4.1
								connection.execute("SET", key, holder, ascii("NX"), ascii("PX"),
										ascii(Long.toString(TERM.toMillis())));
							}
							try (RedisConnection connection = factory.getConnection()) {
								connection.keyCommands().del(key);
							}
						});
						round[0]++;
					}
				}
			}
		}
	}

	// A warm-up of a fifth, the server's statistics reset, then the pairs measured.
	private static void row(String name, RedisConnectionFactory factory, int pairs, LongConsumer pair) {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		OperatingSystemMXBean system = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
		for (int i = 0; i < pairs / 5; i++) {
			pair.accept(-1 - i);
		}
		resetStats(factory);
		double serverCpuBefore = serverCpuSeconds(factory);
		long threadBefore = threads.getCurrentThreadCpuTime();
		long jvmBefore = system.getProcessCpuTime();
		long wallBefore = System.nanoTime();
		for (int i = 0; i < pairs; i++) {
			pair.accept(i);
		}
		long wall = System.nanoTime() - wallBefore;
		long thread = threads.getCurrentThreadCpuTime() - threadBefore;
		long jvm = system.getProcessCpuTime() - jvmBefore;
		double serverCpu = serverCpuSeconds(factory) - serverCpuBefore;
		StringBuilder commands = new StringBuilder();
		commandStats(factory).forEach((command, stat) -> {
			if (!command.equals("info") && !command.equals("config|resetstat")) {
				commands.append(String.format(Locale.ROOT, " %s %.2f/pair %.2f µs/call;",
						command.toUpperCase(Locale.ROOT), stat[0] / (double) pairs, stat[1] / (double) stat[0]));
			}
		});
		System.out.println(String.format(Locale.ROOT,
				"MEASURE %s: %d pairs, client thread CPU %.1f µs/pair, JVM CPU %.1f µs/pair,"
						+ " server CPU %.1f µs/pair, wall %.1f µs/pair;%s",
				name, pairs, thread / 1000.0 / pairs, jvm / 1000.0 / pairs, serverCpu * 1e6 / pairs,
				wall / 1000.0 / pairs, commands));
	}

	private static void resetStats(RedisConnectionFactory factory) {
		try (RedisConnection connection = factory.getConnection()) {
			connection.serverCommands().resetConfigStats();
		}
	}

	private static double serverCpuSeconds(RedisConnectionFactory factory) {
		Properties cpu = info(factory, "cpu");
		return Double.parseDouble(cpu.getProperty("used_cpu_user").trim())
				+ Double.parseDouble(cpu.getProperty("used_cpu_sys").trim());
	}

	// calls and usec of every command the server ran since the reset, by name.
	private static Map<String, long[]> commandStats(RedisConnectionFactory factory) {
		Map<String, long[]> stats = new TreeMap<>();
		Properties info = info(factory, "commandstats");
		for (String name : info.stringPropertyNames()) {
			if (name.startsWith("cmdstat_")) {
				String value = info.getProperty(name);
				stats.put(name.substring(8), new long[] { field(value, "calls"), field(value, "usec") });
			}
		}
		return stats;
	}

	private static Properties info(RedisConnectionFactory factory, String section) {
		try (RedisConnection connection = factory.getConnection()) {
			Properties info = connection.serverCommands().info(section);
			if (info == null) {
				throw new IllegalStateException("INFO " + section + " answered nothing");
			}
			return info;
		}
	}

	private static long field(String value, String field) {
		for (String part : value.split(",")) {
			if (part.startsWith(field + "=")) {
				return Long.parseLong(part.substring(field.length() + 1).trim());
			}
		}
		return 0;
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
