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

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A server that restricts commands as managed services do: {@code CONFIG} and
 * {@code WAIT} renamed away. The host starts and works on it, its durability reads
 * {@code UNKNOWN} with what to set instead, {@code require-durable} takes an explicit
 * assumption, and replicas-to-ack, which needs {@code WAIT}, is refused at start.
 *
 * @author Lease contributors
 */
class RedisRestrictedCommandsIntegrationTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static RedisTestServer server;

	@BeforeAll
	static void startRestrictedServer() {
		server = RedisTestServer.startEmbedded(RedisTestServer.freePort(),
				List.of("rename-command CONFIG \"\"", "rename-command WAIT \"\""));
	}

	@AfterAll
	static void stopRestrictedServer() {
		server.close();
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "lettuce", "jedis" })
	@DisplayName("Host: durability. With CONFIG renamed away the host starts, takes, hands off and releases, and its durability reads UNKNOWN with the reason and what to set instead")
	void hostWorksAndDurabilityIsUnknownWithWhatToSet(String client) throws Exception {
		RedisConnectionFactory factory = "lettuce".equals(client) ? server.lettuce() : server.jedis();
		try (RedisLeaseHost host = RedisLeaseHost.builder(factory).keyPrefix(prefix()).build()) {
			assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.UNKNOWN);
			assertThat(host.durability().reason()).contains("CONFIG GET is not available")
				.contains("lease.redis.assume-durable=true");
			LeaseKey key = LeaseKey.of("restricted-" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder");
			LeaseHolder waiter = LeaseHolder.of("waiter");
			assertThat(host.tryTake(key, holder, TERM)).isInstanceOf(Taken.class);
			CompletableFuture<TakeResult> waiting = CompletableFuture.supplyAsync(() -> take(host, key, waiter));
			awaitQueued(host);
			assertThat(host.release(key, holder)).isInstanceOf(Released.class);
			assertThat(waiting.get(30, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
			assertThat(host.release(key, waiter)).isInstanceOf(Released.class);
		}
	}

	@Test
	@DisplayName("Host: durability. With CONFIG renamed away, require-durable fails the start naming the refused command and the explicit assumption to set instead")
	void requireDurableFailsTheStartNamingWhatToSet() {
		assertThatExceptionOfType(RedisDurabilityRequiredException.class)
			.isThrownBy(() -> RedisLeaseHost.builder(server.lettuce()).keyPrefix(prefix()).requireDurable(true).build())
			.satisfies((ex) -> assertThat(ex.reached()).isTrue())
			.withMessageContaining("CONFIG GET is not available")
			.withMessageContaining("lease.redis.assume-durable=true");
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "lettuce", "jedis" })
	@DisplayName("Operation 11: with WAIT renamed away, replicas-to-ack fails the start naming the missing command, and nothing is written")
	void replicasToAckWithoutWaitFailsTheStart(String client) {
		RedisConnectionFactory factory = "lettuce".equals(client) ? server.lettuce() : server.jedis();
		String prefix = prefix();
		assertThatExceptionOfType(RedisReplicasToAckUnsupportedException.class).isThrownBy(
				() -> RedisLeaseHost.builder(factory).keyPrefix(prefix).replicasToAck(1, Duration.ofSeconds(1)).build())
			.withMessageContaining("WAIT")
			.withMessageContaining("replicas-to-ack");
		assertThat(server.keys(prefix)).isEmpty();
	}

	@Test
	@DisplayName("Host: durability. With CONFIG renamed away and assume-durable stated, require-durable lets takes through, and the durability says it is assumed, not read")
	void assumeDurableLetsRequireDurableTakeOnAServerThatDoesNotSay() {
		try (RedisLeaseHost host = RedisLeaseHost.builder(server.lettuce())
			.keyPrefix(prefix())
			.requireDurable(true)
			.assumeDurable(true)
			.durabilityCheckInterval(Duration.ofMillis(100))
			.build()) {
			assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.DURABLE);
			assertThat(host.durability().reason()).startsWith("assumed durable (lease.redis.assume-durable=true)")
				.contains("CONFIG GET is not available");
			LeaseKey key = LeaseKey.of("restricted-" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder");
			assertThat(host.tryTake(key, holder, TERM)).isInstanceOf(Taken.class);
			assertThat(host.release(key, holder)).isInstanceOf(Released.class);
		}
	}

	// The waiter is queued at the server before the release.
	private static void awaitQueued(RedisLeaseHost host) {
		await("the waiter queued").atMost(Duration.ofSeconds(30))
			.until(() -> server.keys(host.keyPrefix()).stream().anyMatch((name) -> name.endsWith(":q")));
	}

	private static TakeResult take(RedisLeaseHost host, LeaseKey key, LeaseHolder holder) {
		try {
			return host.take(key, holder, TERM);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static String prefix() {
		return "restricted-" + UUID.randomUUID() + ":";
	}

}
