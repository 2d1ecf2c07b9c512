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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests of an instance of the previous protocol, protocol 1, beside this host on one key
 * prefix: the previous release's own {@code lease.lua} (test fixture
 * {@code protocol-1/lease.lua}) driven by {@link PreviousProtocolRedisInstance}. This
 * host still reads the old script's plain grant of a key nobody waits for (format version
 * 1) and honours it; every value this host writes is of format version 3, which keeps the
 * grant's start, and the old script refuses it, answering that it cannot read format
 * version 3; once the old script has queued a waiter, its whole-queue value is refused by
 * this host, which fails the call naming format version 1. Neither side works on the
 * other's state then: the docs' "upgrade with every instance stopped" rests on that
 * refusal.
 *
 * @author Lease contributors
 */
class RedisPreviousProtocolIntegrationTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static RedisTestServer server;

	private static final List<RedisLeaseHost> hosts = new ArrayList<>();

	private static final List<String> prefixes = new ArrayList<>();

	private static final ExecutorService waiters = Executors.newCachedThreadPool();

	@BeforeAll
	static void startServer() {
		server = RedisTestServer.start();
	}

	@AfterAll
	static void stopServer() throws InterruptedException {
		waiters.shutdownNow();
		waiters.awaitTermination(30, TimeUnit.SECONDS);
		hosts.forEach(RedisLeaseHost::close);
		try (RedisConnection connection = server.lettuce().getConnection()) {
			for (String prefix : prefixes) {
				for (String key : server.keys(prefix)) {
					connection.keyCommands().del(bytes(key));
				}
				connection.keyCommands().del(bytes(prefix + "protocol"), bytes(prefix + "handoff"));
			}
		}
		server.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "lettuce", "jedis" })
	void aGrantOfTheOldScriptIsHonouredAndTheQueueItWritesIsRefused(String client) {
		RedisConnectionFactory factory = factory(client);
		String prefix = prefix();
		RedisLeaseHost host = build(factory, prefix);
		PreviousProtocolRedisInstance old = new PreviousProtocolRedisInstance(factory, prefix);
		LeaseKey key = LeaseKey.of("taken-by-protocol-1");
		assertThat(old.tryTake(key, LeaseHolder.of("old-a"), TERM)).first().isEqualTo(1L);
		assertThat(host.tryTake(key, LeaseHolder.of("new"), TERM)).as("the old grant, in the shared plain form")
			.isInstanceOf(Held.class);
		assertThat(host.release(key, LeaseHolder.of("new"))).isInstanceOf(NotHeld.class);
		assertThat(old.take(key, LeaseHolder.of("old-b"), TERM, "ticket-b")).as("queued by the old script")
			.first()
			.isEqualTo(0L);
		byte[] wholeQueue = value(factory, old.redisKey(key));
		assertThat(wholeQueue).startsWith((byte) 0xC1, (byte) 'L', (byte) 1, (byte) 'Q');
		assertThatExceptionOfType(LeaseHostException.class)
			.isThrownBy(() -> host.tryTake(key, LeaseHolder.of("new"), TERM))
			.withMessageContaining("holds lease state of format version 1, which this version of the lease host"
					+ " (format version 3) cannot read");
		assertThatExceptionOfType(LeaseHostException.class)
			.isThrownBy(() -> host.take(key, LeaseHolder.of("new"), TERM))
			.withMessageContaining("format version 1");
		assertThat(value(factory, old.redisKey(key))).as("left untouched").isEqualTo(wholeQueue);
		assertThat(old.release(key, LeaseHolder.of("old-a"))).as("handed to the old waiter").first().isEqualTo(1L);
		assertThat(old.tryTake(key, LeaseHolder.of("old-b"), TERM)).as("old-b holds it").containsExactly(-1L);
	}

	@ParameterizedTest
	@ValueSource(strings = { "lettuce", "jedis" })
	void aGrantOfThisHostAndItsWaitersAreRefusedByTheOldScript(String client) throws Exception {
		RedisConnectionFactory factory = factory(client);
		String prefix = prefix();
		RedisLeaseHost host = build(factory, prefix);
		PreviousProtocolRedisInstance old = new PreviousProtocolRedisInstance(factory, prefix);
		LeaseKey key = LeaseKey.of("taken-by-protocol-2");
		assertThat(host.tryTake(key, LeaseHolder.of("new-a"), TERM)).isInstanceOf(Taken.class);
		byte[] plain = value(factory, old.redisKey(key));
		assertThat(plain).startsWith((byte) 0xC1, (byte) 'L', (byte) 3, (byte) 'G');
		assertThat(old.tryTake(key, LeaseHolder.of("old"), TERM)).as("format version 3, refused")
			.containsExactly(-3L, 3L);
		assertThat(old.release(key, LeaseHolder.of("new-a"))).containsExactly(-3L, 3L);
		assertThat(value(factory, old.redisKey(key))).as("left as this host wrote it").isEqualTo(plain);
		CompletableFuture<TakeResult> waiter = CompletableFuture.supplyAsync(() -> take(host, key, "new-b"), waiters);
		byte[] queued = awaitQueueHead(factory, old.redisKey(key));
		assertThat(queued).startsWith((byte) 0xC1, (byte) 'L', (byte) 3, (byte) 'W');
		assertThat(old.tryTake(key, LeaseHolder.of("old"), TERM)).containsExactly(-3L, 3L);
		assertThat(old.take(key, LeaseHolder.of("old"), TERM, "ticket-old")).containsExactly(-3L, 3L);
		assertThat(old.release(key, LeaseHolder.of("new-a"))).containsExactly(-3L, 3L);
		assertThat(value(factory, old.redisKey(key))).as("left as this host wrote it").isEqualTo(queued);
		assertThat(host.release(key, LeaseHolder.of("new-a"))).isInstanceOf(Released.class);
		assertThat(waiter.get(30, TimeUnit.SECONDS)).as("handed to this host's waiter").isInstanceOf(Taken.class);
		assertThat(host.release(key, LeaseHolder.of("new-b"))).isInstanceOf(Released.class);
	}

	private static TakeResult take(RedisLeaseHost host, LeaseKey key, String holder) {
		try {
			return host.take(key, LeaseHolder.of(holder), TERM);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	// The key's value once this host's waiter stands in its queue (the key's ':q').
	private static byte[] awaitQueueHead(RedisConnectionFactory factory, byte[] redisKey) throws InterruptedException {
		byte[] queue = bytes(new String(redisKey, StandardCharsets.US_ASCII) + ":q");
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (System.nanoTime() < deadline) {
			try (RedisConnection connection = factory.getConnection()) {
				if (Boolean.TRUE.equals(connection.keyCommands().exists(queue))) {
					return connection.stringCommands().get(redisKey);
				}
			}
			Thread.sleep(20);
		}
		throw new AssertionError("this host's waiter did not queue within 30 s");
	}

	private static byte[] value(RedisConnectionFactory factory, byte[] redisKey) {
		try (RedisConnection connection = factory.getConnection()) {
			return connection.stringCommands().get(redisKey);
		}
	}

	private static RedisLeaseHost build(RedisConnectionFactory factory, String prefix) {
		RedisLeaseHost host = RedisLeaseHost.builder(factory).keyPrefix(prefix).build();
		hosts.add(host);
		return host;
	}

	private static RedisConnectionFactory factory(String client) {
		return "lettuce".equals(client) ? server.lettuce() : server.jedis();
	}

	private static String prefix() {
		String prefix = "previous-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		prefixes.add(prefix);
		return prefix;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
