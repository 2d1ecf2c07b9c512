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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.lettuce.core.KillArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.types.RedisClientInfo;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for a {@link RedisLeaseHost} whose subscription is cut and made again: a handoff
 * published while it was down must not be left to the waiter's own re-ask, at half its
 * term. Two hosts on one Redis, each on connection factories of its own, so that the
 * waiter's host learns of the release only from the channel; only the waiter's host's
 * subscription is killed, found by its client name.
 *
 * @author Lease contributors
 */
class RedisResubscriptionIntegrationTests {

	// Long enough that the waiter's own re-ask, at half of it, comes far after the bound.
	private static final Duration TERM = Duration.ofSeconds(8);

	private static final Duration PROMPT = Duration.ofMillis(1500);

	private static RedisTestServer server;

	private static LettuceConnectionFactory admin;

	private final String prefix = "lease-resubscribe-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	@BeforeAll
	static void startServer() {
		server = RedisTestServer.start();
		admin = lettuce("lease-admin-" + UUID.randomUUID());
	}

	@AfterAll
	static void stopServer() {
		admin.destroy();
		server.close();
	}

	@Test
	@DisplayName("Operation 1, 2 (waking): through Lettuce, a handoff published while the waiter's subscription was killed wakes it once the subscription is back, not at half its term")
	void handoffPublishedWhileLettuceSubscriptionWasDownWakesTheWaiter() throws Exception {
		handoffPublishedWhileSubscriptionWasDownWakesTheWaiter(RedisResubscriptionIntegrationTests::lettuce);
	}

	@Test
	@DisplayName("Operation 1, 2 (waking): through Jedis, a handoff published while the waiter's subscription was killed wakes it once the subscription is back, not at half its term")
	void handoffPublishedWhileJedisSubscriptionWasDownWakesTheWaiter() throws Exception {
		handoffPublishedWhileSubscriptionWasDownWakesTheWaiter(RedisResubscriptionIntegrationTests::jedis);
	}

	private void handoffPublishedWhileSubscriptionWasDownWakesTheWaiter(
			Function<String, RedisConnectionFactory> factories) throws Exception {
		String nameOfB = "lease-b-" + UUID.randomUUID();
		RedisConnectionFactory factoryOfA = factories.apply("lease-a-" + UUID.randomUUID());
		RedisConnectionFactory factoryOfB = factories.apply(nameOfB);
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try (RedisLeaseHost hostA = RedisLeaseHost.builder(factoryOfA).keyPrefix(this.prefix).build();
				RedisLeaseHost hostB = RedisLeaseHost.builder(factoryOfB).keyPrefix(this.prefix).build()) {
			LeaseKey key = LeaseKey.of("resubscribe-" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
			LeaseHolder waiter = LeaseHolder.of("waiter-" + UUID.randomUUID());
			assertThat(hostA.tryTake(key, holder, TERM.multipliedBy(4))).isInstanceOf(Taken.class);
			Future<TakeResult> waiting = executor.submit(() -> hostB.take(key, waiter, TERM));
			await().atMost(Duration.ofSeconds(5))
				.untilAsserted(() -> assertThatExceptionOfType(ReentrantTakeException.class)
					.isThrownBy(() -> hostA.tryTake(key, waiter, TERM)));
			killSubscriptions(nameOfB);
			long released = System.nanoTime();
			assertThat(hostA.release(key, holder)).isInstanceOf(Released.class);
			TakeResult result = waiting.get(TERM.toSeconds() * 2, TimeUnit.SECONDS);
			Duration woken = Duration.ofNanos(System.nanoTime() - released);
			assertThat(result).isInstanceOf(Taken.class);
			assertThat(woken).as("from the release to the waiter granted").isLessThan(PROMPT);
			hostB.release(key, waiter);
		}
		finally {
			destroy(factoryOfA);
			destroy(factoryOfB);
			executor.shutdownNow();
		}
	}

	// CLIENT KILL of the pub/sub connections of one client name: only that host's
	// subscription is cut.
	private static void killSubscriptions(String clientName) throws Exception {
		try (RedisConnection connection = admin.getConnection()) {
			List<RedisClientInfo> clients = connection.serverCommands().getClientList();
			List<String> ids = clients.stream()
				.filter((client) -> clientName.equals(client.getName()))
				.filter((client) -> client.getFlags() != null && client.getFlags().contains("P"))
				.map((client) -> client.get("id"))
				.toList();
			assertThat(ids).as("the pub/sub connections of " + clientName).isNotEmpty();
			// CLIENT KILL answers a number, which Spring's execute cannot read.
			RedisClusterAsyncCommands<byte[], byte[]> commands = ((LettuceConnection) connection).getNativeConnection();
			for (String id : ids) {
				assertThat(commands.clientKill(KillArgs.Builder.id(Long.parseLong(id))).get(5, TimeUnit.SECONDS))
					.isEqualTo(1L);
			}
		}
	}

	private static LettuceConnectionFactory lettuce(String clientName) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()),
				LettuceClientConfiguration.builder().clientName(clientName).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static JedisConnectionFactory jedis(String clientName) {
		JedisConnectionFactory factory = new JedisConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()),
				JedisClientConfiguration.builder().clientName(clientName).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static void destroy(RedisConnectionFactory factory) {
		if (factory instanceof LettuceConnectionFactory lettuce) {
			lettuce.destroy();
		}
		else if (factory instanceof JedisConnectionFactory jedis) {
			jedis.destroy();
		}
	}

}
