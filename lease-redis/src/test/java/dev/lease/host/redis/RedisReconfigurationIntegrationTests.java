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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link RedisLeaseHost}'s durability check on a server reconfigured after the
 * host started: the check runs again on a schedule and on every reconnection, and
 * {@code requireDurable} then refuses to answer {@link Taken}. Each test starts its own
 * server, once with Lettuce and once with Jedis.
 *
 * @author Lease contributors
 */
class RedisReconfigurationIntegrationTests {

	private static final Duration LONG = Duration.ofSeconds(60);

	private static final Duration CHECK_INTERVAL = Duration.ofMillis(200);

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "lettuce", "jedis" })
	@DisplayName("Invariant 2.2: appendonly turned off while the host runs is noticed on the schedule; require-durable then refuses to answer Taken")
	void appendOnlyTurnedOffWhileRunningIsNoticed(String client, @TempDir Path directory) throws Exception {
		try (RedisTestServer server = RedisTestServer.startEmbedded(RedisTestServer.freePort(), durable(directory))) {
			RedisConnectionFactory factory = factory(server, client);
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory)
				.keyPrefix(prefix())
				.requireDurable(true)
				.durabilityCheckInterval(CHECK_INTERVAL)
				.build()) {
				assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.DURABLE);
				LeaseKey key = LeaseKey.of("reconfigured-" + UUID.randomUUID());
				LeaseHolder first = LeaseHolder.of("first");
				assertThat(host.tryTake(key, first, LONG)).isInstanceOf(Taken.class);
				try (RedisConnection operator = factory.getConnection()) {
					operator.serverCommands().setConfig("appendonly", "no");
				}
				await().atMost(CHECK_INTERVAL.plusSeconds(10))
					.untilAsserted(
							() -> assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.NOT_DURABLE));
				assertThat(host.durability().reason()).contains("appendonly");
				LeaseKey other = LeaseKey.of("reconfigured-" + UUID.randomUUID());
				LeaseHolder second = LeaseHolder.of("second");
				assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> host.tryTake(other, second, LONG))
					.withMessageContaining("require-durable")
					.withMessageContaining("appendonly");
				assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> host.take(other, second, LONG))
					.withMessageContaining("require-durable");
				assertThat(host.remaining(other, second)).isEmpty();
				assertThat(host.remaining(key, first)).as("a grant that stands is not ended by the refusal")
					.isPresent();
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "lettuce", "jedis" })
	@DisplayName("Invariant 1.2, 2.2: a server restarted without AOF is rechecked on reconnection, not on the schedule; require-durable never answers Taken on it")
	void serverRestartedWithoutAofIsNoticedOnReconnection(String client, @TempDir Path directory) throws Exception {
		int port = RedisTestServer.freePort();
		RedisTestServer server = RedisTestServer.startEmbedded(port, durable(directory));
		RedisTestServer restarted = null;
		try {
			RedisConnectionFactory factory = factory(server, client);
			// No scheduled check within the test: only the reconnection can notice.
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory)
				.keyPrefix(prefix())
				.requireDurable(true)
				.durabilityCheckInterval(Duration.ofHours(1))
				.build()) {
				assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.DURABLE);
				LeaseKey key = LeaseKey.of("restarted-" + UUID.randomUUID());
				LeaseHolder first = LeaseHolder.of("first");
				LeaseHolder second = LeaseHolder.of("second");
				assertThat(host.tryTake(key, first, LONG)).isInstanceOf(Taken.class);
				server.stopServer();
				restarted = RedisTestServer.startEmbedded(port,
						List.of("appendonly no", "dir " + Files.createDirectories(directory.resolve("empty"))));
				if (client.equals("lettuce")) {
					// Lettuce reconnects without failing a call: the reconnection alone
					// triggers the check.
					await().atMost(Duration.ofSeconds(15))
						.untilAsserted(() -> assertThat(host.durability().status())
							.isEqualTo(RedisDurability.Status.NOT_DURABLE));
				}
				// first's grant was lost with the server, and second must never be told
				// Taken; the first calls may fail on connections to the old server.
				assertThat(refusal(host, key, second)).contains("require-durable");
				assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.NOT_DURABLE);
				assertThat(host.durability().reason()).contains("appendonly");
				assertThat(host.remaining(key, second)).isEmpty();
			}
		}
		finally {
			server.close();
			if (restarted != null) {
				restarted.close();
			}
		}
	}

	// The message of the first refusal that gives the server's setting as its reason;
	// a call may first fail on a connection to the old server. Fails on Taken.
	private static String refusal(RedisLeaseHost host, LeaseKey key, LeaseHolder holder) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
		while (true) {
			try {
				TryTakeResult answer = host.tryTake(key, holder, LONG);
				throw new AssertionError("The host answered " + answer + " on a server restarted without AOF");
			}
			catch (LeaseHostException ex) {
				if (ex.getMessage().contains("appendonly") || System.nanoTime() - deadline > 0) {
					return ex.getMessage();
				}
			}
			Thread.sleep(100);
		}
	}

	private static List<String> durable(Path directory) throws Exception {
		return List.of("appendonly yes", "appendfsync always",
				"dir " + Files.createDirectories(directory.resolve("data")));
	}

	private static RedisConnectionFactory factory(RedisTestServer server, String client) {
		Function<RedisTestServer, RedisConnectionFactory> factory = client.equals("jedis") ? RedisTestServer::jedis
				: RedisTestServer::lettuce;
		return factory.apply(server);
	}

	private static String prefix() {
		return "lease-reconfigured-" + UUID.randomUUID().toString().substring(0, 8) + ":";
	}

}
