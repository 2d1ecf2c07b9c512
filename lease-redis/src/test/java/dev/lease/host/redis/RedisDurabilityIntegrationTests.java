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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.tck.LeaseHostProbes;
import dev.lease.tck.history.HistoryAssertions;
import dev.lease.tck.history.RecordingLeaseHost;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RedisLeaseHost}'s durability check and for a grant across a restart of
 * Redis. These start their own embedded servers whatever the environment names.
 *
 * @author Lease contributors
 */
class RedisDurabilityIntegrationTests {

	@Test
	@DisplayName("Durability: a server without appendonly is reported NOT_DURABLE, and require-durable fails the start")
	void serverWithoutAppendOnlyIsNotDurable() {
		try (RedisTestServer server = RedisTestServer.startEmbedded(RedisTestServer.freePort(),
				List.of("appendonly no"))) {
			RedisConnectionFactory factory = server.lettuce();
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory).build()) {
				assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.NOT_DURABLE);
				assertThat(host.durability().reason()).contains("appendonly");
			}
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory).assumeDurable(true).build()) {
				assertThat(host.durability().status()).as("a server that says is judged by what it says")
					.isEqualTo(RedisDurability.Status.NOT_DURABLE);
			}
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> RedisLeaseHost.builder(factory).requireDurable(true).build())
				.withMessageContaining("durable");
		}
	}

	@Test
	@DisplayName("Durability: a server with CONFIG disabled is reported UNKNOWN, not a crash")
	void serverWithoutConfigIsUnknown() {
		try (RedisTestServer server = RedisTestServer.startEmbedded(RedisTestServer.freePort(),
				List.of("rename-command CONFIG \"\""))) {
			RedisConnectionFactory factory = server.lettuce();
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory).build()) {
				assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.UNKNOWN);
				LeaseKey key = LeaseKey.of(UUID.randomUUID().toString());
				LeaseHolder holder = LeaseHolder.of("holder");
				assertThat(host.tryTake(key, holder, Duration.ofSeconds(5))).isInstanceOf(Taken.class);
				assertThat(host.release(key, holder)).isInstanceOf(Released.class);
			}
		}
	}

	@Test
	@DisplayName("Durability: a user whose ACL denies CONFIG sees UNKNOWN with the reason, and require-durable fails the start")
	void configDeniedByAclIsUnknown() {
		int port = RedisTestServer.freePort();
		try (RedisTestServer server = RedisTestServer.startEmbedded(port,
				List.of("appendonly yes", "user leases on >secret ~* &* +@all -config"))) {
			RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration("127.0.0.1", port);
			configuration.setUsername("leases");
			configuration.setPassword("secret");
			LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration);
			factory.afterPropertiesSet();
			factory.start();
			try {
				try (RedisLeaseHost host = RedisLeaseHost.builder(factory).build()) {
					assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.UNKNOWN);
					assertThat(host.durability().reason()).contains("CONFIG GET is not available");
					LeaseKey key = LeaseKey.of(UUID.randomUUID().toString());
					LeaseHolder holder = LeaseHolder.of("holder");
					assertThat(host.tryTake(key, holder, Duration.ofSeconds(5))).isInstanceOf(Taken.class);
					assertThat(host.release(key, holder)).isInstanceOf(Released.class);
				}
				assertThatExceptionOfType(LeaseHostException.class)
					.isThrownBy(() -> RedisLeaseHost.builder(factory).requireDurable(true).build())
					.withMessageContaining("unknown");
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	@DisplayName("Host failure: a host built while Redis is unreachable starts, and every call fails with"
			+ " LeaseHostException")
	void unreachableServerBuildsAHostWhoseCallsFailWithLeaseHostException() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", RedisTestServer.freePort()));
		factory.afterPropertiesSet();
		factory.start();
		try (RedisLeaseHost host = RedisLeaseHost.builder(factory).build()) {
			assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.UNKNOWN);
			assertThat(host.durability().reason()).contains("could not be reached");
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.tryTake(LeaseKey.of("unreachable"), LeaseHolder.of("h"), Duration.ofSeconds(5)));
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.remaining(LeaseKey.of("unreachable"), LeaseHolder.of("h")));
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	@DisplayName("Host failure: with durability required, an unreachable Redis fails the start, as not reached")
	void unreachableServerFailsTheStartWhenDurabilityIsRequired() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", RedisTestServer.freePort()));
		factory.afterPropertiesSet();
		factory.start();
		try {
			assertThatExceptionOfType(RedisDurabilityRequiredException.class)
				.isThrownBy(() -> RedisLeaseHost.builder(factory).requireDurable(true).build())
				.satisfies((ex) -> assertThat(ex.reached()).isFalse())
				.withMessageContaining("could not be reached");
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	@DisplayName("Invariant 2.2: a grant survives a restart of an AOF-enabled Redis")
	void grantSurvivesRestartOfDurableServer(@TempDir Path directory) throws IOException {
		Path data = Files.createDirectories(directory.resolve("data"));
		List<String> settings = List.of("appendonly yes", "appendfsync always", "dir " + data);
		int port = RedisTestServer.freePort();
		LeaseKey key = LeaseKey.of("restart-" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
		RedisTestServer server = RedisTestServer.startEmbedded(port, settings);
		RedisTestServer restarted = null;
		try {
			RedisConnectionFactory factory = server.lettuce();
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory).requireDurable(true).build()) {
				assertThat(host.durability().status()).isEqualTo(RedisDurability.Status.DURABLE);
				Taken taken = (Taken) host.tryTake(key, holder, Duration.ofSeconds(60));
				server.stopServer();
				restarted = RedisTestServer.startEmbedded(port, settings);
				assertThat(host.tryTake(key, LeaseHolder.of("other"), Duration.ofSeconds(1))).isInstanceOf(Held.class);
				assertThat(host.remaining(key, holder)).isPresent();
				assertThat(host.grants(100)).contains(taken.lease());
				assertThat(host.release(key, holder)).isInstanceOf(Released.class);
			}
		}
		finally {
			server.close();
			if (restarted != null) {
				restarted.close();
			}
		}
	}

	@Test
	@DisplayName("Invariant 1, 2.2, Operation 2: across a restart of an AOF-enabled Redis, a waiter gets the key at the release or a clear error; the history is one the atom allows and nothing stays held")
	void waiterAcrossRestartGetsTheKeyOrAClearError(@TempDir Path directory) throws Exception {
		Path data = Files.createDirectories(directory.resolve("data"));
		List<String> settings = List.of("appendonly yes", "appendfsync always", "dir " + data);
		int port = RedisTestServer.freePort();
		LeaseKey key = LeaseKey.of("restart-" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
		LeaseHolder waiter = LeaseHolder.of("waiter-" + UUID.randomUUID());
		RedisTestServer server = RedisTestServer.startEmbedded(port, settings);
		RedisTestServer restarted = null;
		try (RedisLeaseHost redis = RedisLeaseHost.builder(server.lettuce()).build()) {
			RecordingLeaseHost host = new RecordingLeaseHost(redis);
			Taken taken = (Taken) host.tryTake(key, holder, Duration.ofSeconds(20));
			CompletableFuture<TakeResult> waiting = CompletableFuture.supplyAsync(() -> {
				try {
					return host.take(key, waiter, Duration.ofSeconds(20));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException(ex);
				}
			});
			// queued, counted without entering the checked history
			LeaseHostProbes.awaitWaiting(redis, key, 1, Duration.ofSeconds(30));
			server.stopServer();
			restarted = RedisTestServer.startEmbedded(port, settings);
			assertThat(host.grants(100)).as("the grant survived the restart").contains(taken.lease());
			assertThat(host.release(key, holder)).isInstanceOf(Released.class);
			TakeResult answer = null;
			try {
				answer = waiting.get(30, TimeUnit.SECONDS);
			}
			catch (ExecutionException ex) {
				assertThat(ex.getCause()).isInstanceOf(LeaseHostException.class);
			}
			if (answer != null) {
				assertThat(answer).isInstanceOf(Taken.class);
				assertThat(host.release(key, waiter)).isInstanceOf(Released.class);
			}
			else {
				host.release(key, waiter);
			}
			LeaseHolder next = LeaseHolder.of("next");
			assertThat(host.tryTake(key, next, Duration.ofSeconds(1))).isInstanceOf(Taken.class);
			assertThat(host.release(key, next)).isInstanceOf(Released.class);
			RedisTestServer running = restarted;
			HistoryAssertions.assertAllowedAndNothingLeft(host, HistoryAssertions.TOLERANCE,
					() -> running.keys(redis.keyPrefix()));
		}
		finally {
			server.close();
			if (restarted != null) {
				restarted.close();
			}
		}
	}

}
