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

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link RedisLeaseHost}'s durability check on a Redis that evicts: with
 * {@code maxmemory} set and any {@code maxmemory-policy} but {@code noeviction}, a full
 * Redis drops keys, and lease keys, which carry a {@code PEXPIRE}, are among the first
 * even a {@code volatile-*} policy takes. Each test starts its own server, with an
 * append-only file so that persistence alone would be reported durable.
 *
 * @author Lease contributors
 */
class RedisEvictionIntegrationTests {

	private static final Duration LONG = Duration.ofSeconds(60);

	private static final Duration CHECK_INTERVAL = Duration.ofMillis(200);

	@ParameterizedTest(name = "maxmemory-policy {0}")
	@ValueSource(strings = { "allkeys-lru", "volatile-lru" })
	@DisplayName("Invariant 2.2: a server that evicts is reported NOT_DURABLE at start, and require-durable fails the start")
	void evictionIsReadAtStart(String policy, @TempDir Path directory) throws Exception {
		List<String> settings = List.of("appendonly yes", "appendfsync always",
				"dir " + Files.createDirectories(directory.resolve("data")), "maxmemory 4mb",
				"maxmemory-policy " + policy);
		try (RedisTestServer server = RedisTestServer.startEmbedded(RedisTestServer.freePort(), settings)) {
			RedisConnectionFactory factory = server.lettuce();
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory).keyPrefix(prefix()).build()) {
				assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.NOT_DURABLE);
				assertThat(host.durability().reason()).contains("maxmemory-policy").contains(policy);
			}
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> RedisLeaseHost.builder(factory).keyPrefix(prefix()).requireDurable(true).build())
				.withMessageContaining("maxmemory-policy");
		}
	}

	@Test
	@DisplayName("Invariant 2.2: eviction switched on while the host runs, and memory filled by another client, is noticed; require-durable then refuses to answer Taken")
	void evictionSwitchedOnWhileRunningIsNoticedAndRefused(@TempDir Path directory) throws Exception {
		List<String> settings = List.of("appendonly yes", "appendfsync always",
				"dir " + Files.createDirectories(directory.resolve("data")));
		try (RedisTestServer server = RedisTestServer.startEmbedded(RedisTestServer.freePort(), settings)) {
			RedisConnectionFactory factory = server.lettuce();
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory)
				.keyPrefix(prefix())
				.requireDurable(true)
				.durabilityCheckInterval(CHECK_INTERVAL)
				.build()) {
				assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.DURABLE);
				LeaseKey key = LeaseKey.of("evicted-" + UUID.randomUUID());
				LeaseHolder first = LeaseHolder.of("first");
				LeaseHolder second = LeaseHolder.of("second");
				assertThat(host.tryTake(key, first, LONG)).isInstanceOf(Taken.class);
				// An operator shares the server with a cache, and the cache fills it.
				try (RedisConnection other = server.lettuce().getConnection()) {
					other.serverCommands().setConfig("maxmemory", "4mb");
					other.serverCommands().setConfig("maxmemory-policy", "volatile-lru");
					fill(other);
				}
				await().atMost(CHECK_INTERVAL.plusSeconds(10))
					.untilAsserted(
							() -> assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.NOT_DURABLE));
				assertThat(host.durability().reason()).contains("maxmemory-policy").contains("volatile-lru");
				assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> host.tryTake(key, second, LONG))
					.withMessageContaining("require-durable")
					.withMessageContaining("maxmemory-policy");
				assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> host.take(key, second, LONG))
					.withMessageContaining("require-durable");
				assertThat(host.remaining(key, second)).isEmpty();
			}
		}
	}

	// Another application's values, without a TTL, until the server refuses more: under
	// volatile-lru only keys with a TTL, such as lease keys, are evicted to make room.
	private static void fill(RedisConnection connection) {
		byte[] value = new byte[1024];
		for (int i = 0; i < 16_384; i++) {
			try {
				connection.stringCommands().set(("cache:" + i).getBytes(StandardCharsets.US_ASCII), value);
			}
			catch (RuntimeException ex) {
				return;
			}
		}
	}

	private static String prefix() {
		return "lease-evict-" + UUID.randomUUID().toString().substring(0, 8) + ":";
	}

}
