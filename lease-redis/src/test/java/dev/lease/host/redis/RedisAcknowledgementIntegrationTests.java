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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TryTakeResult;
import dev.lease.test.support.RedisTestServer;
import dev.lease.test.support.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Replicas-to-ack counts the replicas of the server that holds the write: a {@code WAIT}
 * that Lettuce sends again after a reconnection (it retries the commands in flight) to
 * another server, as after a failover, counts that server's replicas, which never had the
 * grant or the release.
 *
 * @author Lease contributors
 */
class RedisAcknowledgementIntegrationTests {

	private static final Duration TERM = Duration.ofMinutes(2);

	// A WAIT on the server with no replica waits this long unless it is cut first.
	private static final Duration REPLICA_TIMEOUT = Duration.ofSeconds(10);

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "lettuce", "jedis" })
	@DisplayName("Invariant 2.2, Operation 11: with replicas-to-ack, a grant or release whose WAIT goes again, after a reconnection, to another server is not acknowledged by that server's replicas")
	void waitSentAgainToAnotherServerIsNoAcknowledgement(String client) throws Exception {
		int otherPort = RedisTestServer.freePort();
		try (RedisTestServer alone = RedisTestServer.startEmbedded(RedisTestServer.freePort(), List.of());
				RedisTestServer other = RedisTestServer.startEmbedded(otherPort, List.of());
				RedisTestServer otherReplica = RedisTestServer.startEmbedded(RedisTestServer.freePort(),
						List.of("replicaof 127.0.0.1 " + otherPort));
				TcpProxy proxy = TcpProxy.to(alone.port())) {
			await().atMost(Duration.ofSeconds(20))
				.until(() -> RedisReplicationIntegrationTests.replicaOnline(other.lettuce()));
			RedisStandaloneConfiguration proxied = new RedisStandaloneConfiguration("127.0.0.1", proxy.port());
			LettuceConnectionFactory lettuce = new LettuceConnectionFactory(proxied);
			JedisConnectionFactory jedis = new JedisConnectionFactory(proxied);
			RedisConnectionFactory factory = "lettuce".equals(client) ? lettuce : jedis;
			lettuce.afterPropertiesSet();
			lettuce.start();
			jedis.afterPropertiesSet();
			jedis.start();
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory).replicasToAck(1, REPLICA_TIMEOUT).build()) {
				LeaseKey key = LeaseKey.of("moved-" + UUID.randomUUID());
				LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
				// The grant is written on the server with no replica, and waits there.
				CompletableFuture<TryTakeResult> take = CompletableFuture
					.supplyAsync(() -> host.tryTake(key, holder, TERM));
				awaitBlockedInWait(alone.lettuce());
				proxy.redirect(other.port());
				proxy.cut();
				try {
					TryTakeResult answer = take.get(2, TimeUnit.MINUTES);
					assertThat(host.remaining(key, holder))
						.as("answered %s: the grant stands where the host now writes", answer)
						.isPresent();
				}
				catch (ExecutionException ex) {
					assertThat(ex.getCause()).isInstanceOf(LeaseHostException.class);
				}
				// The release, the other way: written on the server with a replica, its
				// WAIT goes again to the server with none.
				LeaseKey released = LeaseKey.of("released-" + UUID.randomUUID());
				LeaseHolder releaser = LeaseHolder.of("releaser-" + UUID.randomUUID());
				assertThat(host.tryTake(released, releaser, TERM).granted()).isPresent();
				otherReplica.stopServer();
				CompletableFuture<Boolean> release = CompletableFuture
					.supplyAsync(() -> host.release(released, releaser) instanceof Released);
				awaitBlockedInWait(other.lettuce());
				proxy.redirect(alone.port());
				proxy.cut();
				assertThat(release).as("a release no replica of its server acknowledged")
					.failsWithin(Duration.ofMinutes(2))
					.withThrowableOfType(ExecutionException.class)
					.withCauseInstanceOf(LeaseHostException.class);
			}
			finally {
				lettuce.destroy();
				jedis.destroy();
			}
		}
	}

	// Until a client of the server is blocked in WAIT.
	static void awaitBlockedInWait(RedisConnectionFactory server) {
		await("a client blocked in WAIT").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> {
				try (RedisConnection connection = server.getConnection()) {
					return connection.serverCommands()
						.getClientList()
						.stream()
						.anyMatch((client) -> "wait".equals(client.get("cmd")));
				}
			});
	}

}
