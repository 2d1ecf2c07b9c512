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
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.host.KeyModel;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the grants {@link RedisLeaseHost}'s script hands to waiters: the waiter is
 * driven through the script itself, so that its question can be delayed past its whole
 * term, as a stalled client's or one whose handoff message was lost (Host: the state
 * model: a handed grant is kept for its waiter until it asks, even past its instant).
 *
 * @author Lease contributors
 */
class RedisHandedGrantIntegrationTests {

	private static final Duration LONG = Duration.ofSeconds(30);

	// A first grant the next script call meets standing even on a loaded machine.
	private static final Duration FIRST = Duration.ofSeconds(1);

	// How long a handed grant is kept at least past the later of its instant and the
	// waiter's bound, in milliseconds (Host: the state model, the same rule as the JDBC
	// host's).
	private static final long KEPT_MILLIS = KeyModel.HANDED_KEPT_MICROS / 1000;

	private static final byte[] SCRIPT = script();

	private static RedisTestServer server;

	private static RedisConnectionFactory factory;

	private static RedisLeaseHost host;

	private static final String prefix = "handed-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	@BeforeAll
	static void startHost() {
		server = RedisTestServer.start();
		factory = server.lettuce();
		host = RedisLeaseHost.builder(factory).keyPrefix(prefix).build();
	}

	@AfterAll
	static void stopHost() {
		host.close();
		server.close();
	}

	@Test
	@DisplayName("Operation 2, 4: a waiter handed the key at a release and asking only after its whole term (and after another holder took the key) is answered granted, with its passed expiresAt")
	void waiterAskingAfterItsTermWhenAnotherTookTheKeyIsGranted() throws Exception {
		LeaseKey key = LeaseKey.of("handed-" + UUID.randomUUID());
		byte[] redisKey = redisKey(key);
		LeaseHolder first = LeaseHolder.of("first-" + UUID.randomUUID());
		String ticket = UUID.randomUUID().toString();
		assertThat(host.tryTake(key, first, LONG)).isInstanceOf(Taken.class);
		assertThat(script(redisKey, "take", "waiter-" + ticket, "1000", ticket).get(0)).isEqualTo(0L);
		assertThat(host.release(key, first)).isInstanceOf(Released.class);
		// The waiter stalls, on purpose, past its 1 ms term before it asks.
		Thread.sleep(200);
		LeaseHolder second = LeaseHolder.of("second-" + UUID.randomUUID());
		assertThat(host.tryTake(key, second, LONG)).isInstanceOf(Taken.class);
		List<Object> answer = script(redisKey, "ask", ticket, "0", prefix + "handoff");
		assertThat(answer).as("the stalled waiter's answer").first().isEqualTo(1L);
		assertThat(pttl(redisKey))
			.as("the key's TTL, which must keep the handed grant a minute past the waiter's bound")
			.isGreaterThan(KEPT_MILLIS);
		assertThat(script(redisKey, "settle", ticket, "0", prefix + "handoff")).isEqualTo(answer);
		assertThat(script(redisKey, "ask", ticket, "0", prefix + "handoff")).as("asked again once settled")
			.containsExactly(2L);
		assertThat(host.remaining(key, second)).isPresent();
		host.release(key, second);
	}

	@Test
	@DisplayName("Operation 2, 4: a waiter the key passed to at the holder's instant, asking only after its whole term and a second more, is answered granted")
	void waiterAskingLongAfterADerivedHandoffIsGranted() throws Exception {
		LeaseKey key = LeaseKey.of("derived-" + UUID.randomUUID());
		byte[] redisKey = redisKey(key);
		LeaseHolder first = LeaseHolder.of("first-" + UUID.randomUUID());
		String ticket = UUID.randomUUID().toString();
		// The first grant lasts a second so that the waiter's take meets it standing on a
		// loaded machine.
		assertThat(host.tryTake(key, first, FIRST)).isInstanceOf(Taken.class);
		assertThat(script(redisKey, "take", "waiter-" + ticket, "1000", ticket).get(0)).isEqualTo(0L);
		long queuedTtl = pttl(redisKey);
		// Nothing asks while the first grant ends and the waiter's term passes; the
		// waiter stalls, on purpose, for longer than its term plus a second.
		Thread.sleep(FIRST.toMillis() + 1500);
		assertThat(script(redisKey, "ask", ticket, "0", prefix + "handoff")).as("the stalled waiter's answer")
			.first()
			.isEqualTo(1L);
		assertThat(script(redisKey, "settle", ticket, "0", prefix + "handoff")).first().isEqualTo(1L);
		assertThat(queuedTtl)
			.as("the TTL of the key with the waiter queued, which must cover the grant it can still be handed")
			.isGreaterThan(KEPT_MILLIS);
	}

	@Test
	@DisplayName("Invariant 1: a waiter the key passed to at the holder's instant, taking again before anyone asked, is reentrant, and the handoff derived then stands for everyone after")
	void handoffDerivedByAReentrantTakeStands() throws Exception {
		LeaseKey key = LeaseKey.of("reentrant-" + UUID.randomUUID());
		byte[] redisKey = redisKey(key);
		LeaseHolder first = LeaseHolder.of("first-" + UUID.randomUUID());
		String ticket = UUID.randomUUID().toString();
		String waiter = "waiter-" + ticket;
		assertThat(host.tryTake(key, first, FIRST)).isInstanceOf(Taken.class);
		assertThat(script(redisKey, "take", waiter, "30000000", ticket).get(0)).isEqualTo(0L);
		// Nobody asks while the first grant ends: the key passes to the waiter then.
		Thread.sleep(FIRST.toMillis() + 300);
		assertThat(script(redisKey, "take", waiter, "30000000", UUID.randomUUID().toString()))
			.as("the waiter's second take, once the key passed to it")
			.containsExactly(-1L);
		assertThat(script(redisKey, "try", "third", "30000000")).as("another holder's try_take after that")
			.containsExactly(0L);
		assertThat(script(redisKey, "remaining", waiter).get(0)).as("the waiter's remaining").isEqualTo(1L);
	}

	private static List<Object> script(byte[] redisKey, String... args) {
		// the script's keys: the lease's key and its waiters' structures
		String key = new String(redisKey, StandardCharsets.US_ASCII);
		List<String> keys = List.of(key, key + ":q", key + ":w", key + ":h");
		byte[][] keysAndArgs = new byte[keys.size() + args.length][];
		for (int i = 0; i < keys.size(); i++) {
			keysAndArgs[i] = keys.get(i).getBytes(StandardCharsets.US_ASCII);
		}
		for (int i = 0; i < args.length; i++) {
			keysAndArgs[keys.size() + i] = args[i].getBytes(StandardCharsets.UTF_8);
		}
		try (RedisConnection connection = factory.getConnection()) {
			return connection.scriptingCommands().eval(SCRIPT, ReturnType.MULTI, keys.size(), keysAndArgs);
		}
	}

	private static long pttl(byte[] redisKey) {
		try (RedisConnection connection = factory.getConnection()) {
			return connection.keyCommands().pTtl(redisKey);
		}
	}

	private static byte[] redisKey(LeaseKey key) {
		return (prefix + "{" + Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes()) + "}")
			.getBytes(StandardCharsets.US_ASCII);
	}

	private static byte[] script() {
		try (InputStream in = RedisLeaseHost.class.getResourceAsStream("lease.lua")) {
			assertThat(in).as("lease.lua beside RedisLeaseHost").isNotNull();
			// the keep window RedisLeaseScript writes in when it loads the script
			return new String(in.readAllBytes(), StandardCharsets.UTF_8)
				.replace("${HANDED_KEPT_MICROS}", Long.toString(KeyModel.HANDED_KEPT_MICROS))
				.getBytes(StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
