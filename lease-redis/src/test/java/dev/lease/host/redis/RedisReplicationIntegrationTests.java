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
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link RedisLeaseHost} with {@code replicasToAck}, on a local primary and
 * replica started by the test.
 *
 * @author Lease contributors
 */
class RedisReplicationIntegrationTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "lettuce", "jedis" })
	@DisplayName("replicas-to-ack: grants and releases are confirmed with WAIT; too few acknowledgements give a grant back and fail, and fail a release")
	void grantsAreConfirmedByReplicas(String client) throws Exception {
		int primaryPort = RedisTestServer.freePort();
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try (RedisTestServer primary = RedisTestServer.startEmbedded(primaryPort, List.of());
				RedisTestServer replica = RedisTestServer.startEmbedded(RedisTestServer.freePort(),
						List.of("replicaof 127.0.0.1 " + primaryPort))) {
			RedisConnectionFactory factory = "lettuce".equals(client) ? primary.lettuce() : primary.jedis();
			await().atMost(Duration.ofSeconds(20)).until(() -> replicaOnline(factory));
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory)
				.replicasToAck(1, Duration.ofMillis(500))
				.build()) {
				LeaseKey key = LeaseKey.of("replicated-" + UUID.randomUUID());
				LeaseHolder holder = LeaseHolder.of("holder");
				LeaseHolder waiter = LeaseHolder.of("waiter");
				assertThat(host.tryTake(key, holder, TERM)).isInstanceOf(Taken.class);
				int grantOnly = stateLength(factory, key);
				Future<TakeResult> waiting = executor.submit(() -> host.take(key, waiter, TERM));
				await().atMost(Duration.ofSeconds(5))
					.until(() -> waiting.isDone() || stateLength(factory, key) > grantOnly);
				assertThat(waiting.isDone()).as(() -> describe(waiting)).isFalse();
				assertThat(host.release(key, holder)).isInstanceOf(Released.class);
				assertThat(waiting.get(10, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
				assertThat(host.release(key, waiter)).isInstanceOf(Released.class);
				LeaseKey kept = LeaseKey.of("kept-" + UUID.randomUUID());
				assertThat(host.tryTake(kept, holder, TERM)).isInstanceOf(Taken.class);

				replica.stopServer();
				await().atMost(Duration.ofSeconds(20)).until(() -> !replicaOnline(factory));
				LeaseKey lost = LeaseKey.of("unreplicated-" + UUID.randomUUID());
				assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> host.tryTake(lost, holder, TERM))
					.withMessageContaining("replicas");
				// The grant was given back: nobody holds the key.
				assertThat(host.remaining(lost, holder)).isEmpty();
				// A release no replica acknowledged would come back in a failover: not
				// answered released, though the primary ended the grant.
				assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> host.release(kept, holder))
					.withMessageContaining("release was not acknowledged");
				assertThat(host.remaining(kept, holder)).isEmpty();
				assertThat(host.grants(10)).isEmpty();
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

	// The length of the lease's stored state: it grows when a waiter is queued.
	private static int stateLength(RedisConnectionFactory factory, LeaseKey key) {
		try (RedisConnection connection = factory.getConnection()) {
			byte[] state = connection.stringCommands()
				.get(("lease:{" + Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes()) + "}")
					.getBytes(StandardCharsets.US_ASCII));
			return (state != null) ? state.length : 0;
		}
	}

	private static String describe(Future<TakeResult> future) {
		try {
			return String.valueOf(future.get());
		}
		catch (Exception ex) {
			return String.valueOf(ex.getCause());
		}
	}

	// Whether the server has its one replica online.
	static boolean replicaOnline(RedisConnectionFactory factory) {
		try (RedisConnection connection = factory.getConnection()) {
			String info = String.valueOf(connection.serverCommands().info("replication"));
			return info.contains("connected_slaves=1") || info.contains("connected_slaves:1")
					|| (info.contains("slave0") && info.contains("state=online"));
		}
	}

}
