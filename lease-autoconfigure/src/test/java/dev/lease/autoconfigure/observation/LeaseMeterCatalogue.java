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

package dev.lease.autoconfigure.observation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;

import dev.lease.autoconfigure.redis.RedisMeters;
import dev.lease.fence.FenceRefusal;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.observation.LeaseObservationDocumentation;
import dev.lease.observation.MeterRegistryFenceRefusalListener;
import dev.lease.observation.ObservedLeaseHost;

/**
 * The starter's meters, as its code registers them and as docs/operations.md lists them,
 * each name with its kind ({@code counter}, {@code gauge}, {@code time gauge},
 * {@code timer}), and the names under which Micrometer's Prometheus registry exports
 * them.
 *
 * @author Lease contributors
 */
final class LeaseMeterCatalogue {

	static final Path ROOT = Path.of("").toAbsolutePath().getParent();

	static final String METER_TABLE = "| meter | type | tags |";

	static final String OBSERVATION_TABLE = "| observation (and timer) | operation | `lease.outcome` |";

	private LeaseMeterCatalogue() {
	}

	/**
	 * The meters registered beside the observations' timers, read from a registry the
	 * code registered them in.
	 * @return kind by meter name
	 */
	static Map<String, String> registered() {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		new ObservedLeaseHost(new InMemoryLeaseHost(), "memory", meters, ObservationRegistry.NOOP);
		new MeterRegistryFenceRefusalListener(meters)
			.refused(new FenceRefusal("catalogue", null, Instant.now(), null, null));
		Map<String, String> kinds = new TreeMap<>();
		meters.getMeters().forEach((meter) -> kinds.put(meter.getId().getName(), kind(meter.getId())));
		// Registered only on a Redis host that reached its server; that it is a gauge is
		// what RedisDurabilityReportingIntegrationTests reads.
		kinds.put(RedisMeters.DURABILITY, "gauge");
		return kinds;
	}

	/**
	 * The timers the observations make, one per observation.
	 * @return kind by meter name
	 */
	static Map<String, String> observations() {
		return Arrays.stream(LeaseObservationDocumentation.values())
			.collect(Collectors.toMap(LeaseObservationDocumentation::getName, (observation) -> "timer", (a, b) -> a,
					TreeMap::new));
	}

	/**
	 * Every meter of the starter, observations' timers included.
	 * @return kind by meter name
	 */
	static Map<String, String> all() {
		Map<String, String> all = new TreeMap<>(registered());
		all.putAll(observations());
		return all;
	}

	/**
	 * The first two cells of each row of the table with the given header in
	 * docs/operations.md, without backticks.
	 * @param header the table's header line
	 * @return second cell by first cell
	 */
	static Map<String, String> documented(String header) {
		List<String> lines = read(ROOT.resolve("docs/operations.md")).lines().toList();
		int start = lines.indexOf(header);
		if (start < 0) {
			throw new IllegalStateException("docs/operations.md has no table headed " + header);
		}
		Map<String, String> rows = new TreeMap<>();
		// the header, then the separator, then rows until the table ends
		lines.stream().skip(start + 2).takeWhile((line) -> line.startsWith("|")).forEach((line) -> {
			String[] cells = line.split("\\|");
			rows.put(cells[1].replace("`", "").trim(), cells[2].replace("`", "").trim());
		});
		return rows;
	}

	/**
	 * The names Micrometer's Prometheus registry exports the meters under: dots become
	 * underscores, a counter ends in {@code _total}, a time gauge in {@code _seconds},
	 * and a timer is exported as its {@code _seconds_count}, {@code _seconds_sum},
	 * {@code _seconds_max} and, with a histogram, {@code _seconds_bucket}.
	 * @param catalogue kind by meter name
	 * @return every exported name
	 */
	static Set<String> prometheusNames(Map<String, String> catalogue) {
		return catalogue.entrySet()
			.stream()
			.flatMap((meter) -> prometheusNames(meter.getKey(), meter.getValue()))
			.collect(Collectors.toSet());
	}

	private static Stream<String> prometheusNames(String name, String kind) {
		String snake = name.replace('.', '_');
		return switch (kind) {
			case "counter" -> Stream.of(snake + "_total");
			case "gauge" -> Stream.of(snake);
			case "time gauge" -> Stream.of(snake + "_seconds");
			case "timer" -> Stream.of("_count", "_sum", "_max", "_bucket").map((suffix) -> snake + "_seconds" + suffix);
			default -> throw new IllegalArgumentException("No Prometheus names for a " + kind + " (" + name + ")");
		};
	}

	private static String kind(Meter.Id id) {
		return switch (id.getType()) {
			case COUNTER -> "counter";
			case GAUGE -> "seconds".equals(id.getBaseUnit()) ? "time gauge" : "gauge";
			case TIMER -> "timer";
			default -> id.getType().name().toLowerCase();
		};
	}

	static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
