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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.host.redis.RedisLeaseHost;

/**
 * The cost of the Redis host's try_take+release pair and of its floor on one thread, on a
 * connection factory of its own: the commands the client sent (a Lettuce
 * {@link CommandListener}; each is one round trip, nothing is pipelined), the client's
 * CPU, and the server's time per command ({@code INFO commandstats}, the change of
 * {@code usec} over the change of {@code calls} of the commands the client sent).
 *
 * @author Lease contributors
 */
final class RedisCost {

	private static final Duration TERM = Duration.ofSeconds(30);

	private RedisCost() {
	}

	static void run(CostTable table, String host, int port, String prefix, boolean ownServer) {
		Map<String, LongAdder> sent = new ConcurrentHashMap<>();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port));
		factory.afterPropertiesSet();
		factory.start();
		// Before the first connection, which only then carries the listener.
		factory.getRequiredNativeClient().addListener(new CommandListener() {
			@Override
			public void commandStarted(CommandStartedEvent event) {
				String name = new String(event.getCommand().getType().getBytes(), StandardCharsets.US_ASCII);
				sent.computeIfAbsent(name.toLowerCase(Locale.ROOT), (key) -> new LongAdder()).increment();
			}
		});
		LeaseHolder holder = LeaseHolder.of("benchmark");
		LeaseKey[] keys = new LeaseKey[1024];
		byte[][][] floorKeys = new byte[1][1024][];
		for (int i = 0; i < 1024; i++) {
			keys[i] = LeaseKey.of("cost:" + i);
			floorKeys[0][i] = (prefix + "cost-floor:" + i).getBytes(StandardCharsets.UTF_8);
		}
		try (RedisLeaseHost leaseHost = RedisLeaseHost.builder(factory).keyPrefix(prefix + "cost:").build()) {
			String sha;
			try (RedisConnection connection = factory.getConnection()) {
				sha = connection.scriptingCommands().scriptLoad(RedisBenchmarks.COMPARE_AND_DELETE);
			}
			table.add(row("Redis, lease try_take+release", factory, sent, (thread, index) -> {
				LeaseKey key = keys[(int) (index & 1023)];
				leaseHost.tryTake(key, holder, TERM);
				leaseHost.release(key, holder);
			}));
			table.add(row("Redis, floor SET NX PX + compare-and-delete script", factory, sent,
					RedisBenchmarks.floor(factory, sha, floorKeys, holder.bytes())));
			table.note("Redis: server time per command from INFO commandstats (usec over calls) of the commands the"
					+ " client sent, over " + PairCost.PAIRS + " pairs; a script's time includes the commands it runs"
					+ (ownServer ? "" : "; the server is shared, so other clients' calls of the same commands count"));
		}
		catch (Exception ex) {
			throw new IllegalStateException("Redis cost failed", ex);
		}
		finally {
			factory.destroy();
		}
	}

	// The commands the client sent, each also read from the server's commandstats, so
	// that the change of each over the pairs is measured in one go. INFO is the suite's
	// own.
	private static CostTable.Row row(String name, LettuceConnectionFactory factory, Map<String, LongAdder> sent,
			PairThroughput.Pair pair) throws Exception {
		PairCost.Measured cost = PairCost.measure(pair, () -> {
			Map<String, Long> counters = new LinkedHashMap<>();
			commandStats(factory).forEach((command, stat) -> {
				counters.put("calls:" + command, stat[0]);
				counters.put("usec:" + command, stat[1]);
			});
			sent.forEach((command, count) -> counters.put("sent:" + command, count.sum()));
			counters.remove("sent:info");
			return counters;
		});
		Map<String, Double> counted = cost.counted();
		Map<String, Double> perPair = new LinkedHashMap<>();
		counted.forEach((counter, value) -> {
			if (counter.startsWith("sent:")) {
				perPair.put(counter.substring(5), value);
			}
		});
		double commands = perPair.values().stream().mapToDouble(Double::doubleValue).sum();
		double usec = 0;
		double calls = 0;
		for (String command : perPair.keySet()) {
			usec += counted.getOrDefault("usec:" + command, 0.0);
			calls += counted.getOrDefault("calls:" + command, 0.0);
		}
		String byCommand = perPair.keySet()
			.stream()
			.map((command) -> String.format(Locale.ROOT, "%s %.2f × %.1f µs", command.toUpperCase(Locale.ROOT),
					perPair.get(command),
					counted.getOrDefault("usec:" + command, 0.0)
							/ counted.getOrDefault("calls:" + command, Double.NaN)))
			.collect(Collectors.joining(", "));
		String roundTrips = String.format(Locale.ROOT, "%.2f (%s)", commands,
				perPair.entrySet()
					.stream()
					.map((entry) -> String.format(Locale.ROOT, "%.2f %s", entry.getValue(),
							entry.getKey().toUpperCase(Locale.ROOT)))
					.collect(Collectors.joining(", ")));
		return new CostTable.Row(name, roundTrips, cost.threadCpuMicros(), cost.jvmCpuMicros(),
				(calls > 0) ? usec / calls : Double.NaN, byCommand);
	}

	// calls and usec of every command the server has run, by name.
	private static Map<String, long[]> commandStats(LettuceConnectionFactory factory) {
		Map<String, long[]> stats = new LinkedHashMap<>();
		try (RedisConnection connection = factory.getConnection()) {
			Properties info = connection.serverCommands().info("commandstats");
			if (info == null) {
				throw new IllegalStateException("INFO commandstats answered nothing");
			}
			for (String name : info.stringPropertyNames()) {
				if (name.startsWith("cmdstat_")) {
					String value = info.getProperty(name);
					stats.put(name.substring(8), new long[] { field(value, "calls"), field(value, "usec") });
				}
			}
		}
		return stats;
	}

	private static long field(String value, String field) {
		for (String part : value.split(",")) {
			if (part.startsWith(field + "=")) {
				return Long.parseLong(part.substring(field.length() + 1).trim());
			}
		}
		return 0;
	}

}
