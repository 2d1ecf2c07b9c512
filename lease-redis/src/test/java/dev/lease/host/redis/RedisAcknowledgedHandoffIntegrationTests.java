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
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
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
import static org.awaitility.Awaitility.await;

/**
 * With replicas-to-ack, a waiter told it was handed the key confirms the grant at the
 * server before it answers. After a failover the server it asks may lack the handoff and
 * still have the waiter queued (the message came from the old primary); the waiter then
 * fails, and must leave the queue, or a later release hands the key to nobody.
 *
 * @author Lease contributors
 */
class RedisAcknowledgedHandoffIntegrationTests {

	private static final Duration TERM = Duration.ofMinutes(2);

	@Test
	@DisplayName("Host: withdrawal, Operation 7: a waiter whose handoff its server lacks fails and leaves the queue, so the next release frees the key")
	void waiterWhoseHandoffTheServerLacksLeavesTheQueue() throws Exception {
		int port = RedisTestServer.freePort();
		try (RedisTestServer primary = RedisTestServer.startEmbedded(port, List.of());
				RedisTestServer replica = RedisTestServer.startEmbedded(RedisTestServer.freePort(),
						List.of("replicaof 127.0.0.1 " + port))) {
			RedisConnectionFactory factory = primary.lettuce();
			await().atMost(Duration.ofSeconds(20)).until(() -> RedisReplicationIntegrationTests.replicaOnline(factory));
			String prefix = "handoff-" + UUID.randomUUID() + ":";
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory)
				.replicasToAck(1, Duration.ofSeconds(2))
				.keyPrefix(prefix)
				.build()) {
				LeaseKey key = LeaseKey.of("key-" + UUID.randomUUID());
				LeaseHolder holder = LeaseHolder.of("holder");
				LeaseHolder waiter = LeaseHolder.of("waiter");
				assertThat(host.tryTake(key, holder, TERM)).isInstanceOf(Taken.class);
				CompletableFuture<TakeResult> waiting = CompletableFuture
					.supplyAsync(() -> uninterrupted(() -> host.take(key, waiter, TERM)));
				String redisKey = new String(new RedisKeyCodec(prefix).redisKey(key), StandardCharsets.US_ASCII);
				String queue = redisKey + ":q";
				String ticket = await("the waiter queued").atMost(Duration.ofSeconds(20))
					.until(() -> queued(factory, queue), (tickets) -> tickets.size() == 1)
					.iterator()
					.next();
				// The message an old primary sent of a handoff the server asked never
				// had.
				try (RedisConnection connection = factory.getConnection()) {
					connection.publish((prefix + "handoff").getBytes(StandardCharsets.US_ASCII),
							(redisKey + " " + ticket + " " + (System.currentTimeMillis() + TERM.toMillis()) * 1000
									+ " - 0")
								.getBytes(StandardCharsets.US_ASCII));
				}
				assertThat(waiting).as("the handoff is not at the server: the waiter fails")
					.failsWithin(Duration.ofSeconds(30))
					.withThrowableOfType(ExecutionException.class)
					.withCauseInstanceOf(LeaseHostException.class);
				assertThat(host.release(key, holder)).isInstanceOf(Released.class);
				assertThat(host.grant(key)).as("the key, released with nobody left waiting").isEmpty();
			}
		}
	}

	private static Set<String> queued(RedisConnectionFactory factory, String queue) {
		try (RedisConnection connection = factory.getConnection()) {
			Set<byte[]> members = connection.zSetCommands().zRange(queue.getBytes(StandardCharsets.US_ASCII), 0, -1);
			return (members != null) ? members.stream()
				.map((member) -> new String(member, StandardCharsets.US_ASCII))
				.collect(java.util.stream.Collectors.toSet()) : Set.of();
		}
	}

	private static TakeResult uninterrupted(Take take) {
		try {
			return take.call();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	interface Take {

		TakeResult call() throws InterruptedException;

	}

}
