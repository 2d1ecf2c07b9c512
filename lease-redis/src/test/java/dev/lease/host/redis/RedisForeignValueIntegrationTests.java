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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RedisLeaseHost} on a prefix shared with another application: a value
 * under the prefix that is not lease state is never read as a grant and never deleted or
 * overwritten, and every operation on it fails with {@link LeaseHostException} naming the
 * Redis key and the property to change. The test starts its own server.
 *
 * @author Lease contributors
 */
class RedisForeignValueIntegrationTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static RedisTestServer server;

	private static final Map<String, RedisConnectionFactory> factories = new HashMap<>();

	private static final List<RedisLeaseHost> hosts = new ArrayList<>();

	@BeforeAll
	static void startServer() {
		server = RedisTestServer.startEmbedded(RedisTestServer.freePort(), List.of());
		factories.put("lettuce", server.lettuce());
		factories.put("jedis", server.jedis());
	}

	@AfterAll
	static void stopServer() {
		hosts.forEach(RedisLeaseHost::close);
		server.close();
	}

	static Stream<Arguments> foreignValues() {
		List<Arguments> arguments = new ArrayList<>();
		for (String client : List.of("lettuce", "jedis")) {
			for (Foreign foreign : Foreign.values()) {
				arguments.add(Arguments.of(client, foreign));
			}
		}
		return arguments.stream();
	}

	@ParameterizedTest(name = "{0}, {1}")
	@MethodSource("foreignValues")
	@DisplayName("Operation 13: a value of another application under the prefix is never read as a grant nor deleted; every operation fails naming the key and the prefix")
	void foreignValueIsNeitherReadNorDeleted(String client, Foreign foreign) throws Exception {
		RedisConnectionFactory factory = factories.get(client);
		String prefix = "shared-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		RedisLeaseHost host = RedisLeaseHost.builder(factory).keyPrefix(prefix).build();
		hosts.add(host);
		LeaseKey key = LeaseKey.of("foreign-" + UUID.randomUUID());
		String redisKey = prefix + "{" + Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes()) + "}";
		byte[] redisKeyBytes = redisKey.getBytes(StandardCharsets.US_ASCII);
		LeaseHolder holder = LeaseHolder.of("holder");
		byte[] before;
		try (RedisConnection connection = factory.getConnection()) {
			foreign.write.accept(new Written(connection, redisKeyBytes));
			before = connection.keyCommands().dump(redisKeyBytes);
		}
		List<Operation> operations = List.of(new Operation("tryTake", (h) -> h.tryTake(key, holder, TERM)),
				new Operation("take", (h) -> {
					try {
						h.take(key, holder, TERM);
					}
					catch (InterruptedException ex) {
						throw new IllegalStateException(ex);
					}
				}), new Operation("remaining", (h) -> h.remaining(key, holder)),
				new Operation("release", (h) -> h.release(key, holder)), new Operation("grants", (h) -> h.grants(100)),
				new Operation("grant", (h) -> h.grant(key)),
				new Operation("grantedAt", (h) -> h.grantedAt(new Lease(key, holder, Instant.now()))));
		for (Operation operation : operations) {
			assertThatExceptionOfType(LeaseHostException.class).as(operation.name())
				.isThrownBy(() -> operation.call().accept(host))
				.withMessageContaining(redisKey)
				.withMessageContaining("shared")
				.withMessageContaining("lease.redis.key-prefix");
			try (RedisConnection connection = factory.getConnection()) {
				assertThat(connection.keyCommands().dump(redisKeyBytes)).as("the value after %s", operation.name())
					.isEqualTo(before);
				assertThat(connection.keyCommands().ttl(redisKeyBytes)).as("the TTL after %s", operation.name())
					.isEqualTo(-1L);
			}
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] concat(byte[] head, String tail) {
		byte[] rest = bytes(tail);
		byte[] bytes = new byte[head.length + rest.length];
		System.arraycopy(head, 0, bytes, 0, head.length);
		System.arraycopy(rest, 0, bytes, head.length, rest.length);
		return bytes;
	}

	/**
	 * Values another application could keep under the prefix.
	 */
	enum Foreign {

		/**
		 * A string that begins with the byte of the plain grant form of the old format.
		 */
		STRING_G((w) -> w.connection().stringCommands().set(w.key(), bytes("Great value of another application"))),

		/**
		 * A string that begins with the byte of the MessagePack form of the old format.
		 */
		STRING_Q((w) -> w.connection().stringCommands().set(w.key(), bytes("Quota of another application"))),

		/** A string that begins with the current format's tag but is not a state. */
		STRING_TAG((w) -> w.connection().stringCommands().set(w.key(), concat(RedisStoredState.TAG, "short"))),

		/**
		 * A string that begins with the current format's tag, as long as a grant, but
		 * text.
		 */
		STRING_TAG_TEXT((w) -> w.connection()
			.stringCommands()
			.set(w.key(), concat(RedisStoredState.TAG, "sixteen bytes of text, then more"))),

		/** A hash. */
		HASH((w) -> w.connection().hashCommands().hSet(w.key(), bytes("field"), bytes("value"))),

		/** A list. */
		LIST((w) -> w.connection().listCommands().rPush(w.key(), bytes("one"), bytes("two")));

		private final Consumer<Written> write;

		Foreign(Consumer<Written> write) {
			this.write = write;
		}

	}

	record Written(RedisConnection connection, byte[] key) {

	}

	record Operation(String name, Consumer<LeaseHost> call) {

	}

}
