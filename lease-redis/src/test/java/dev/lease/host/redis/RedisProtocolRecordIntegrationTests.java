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
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.host.IncompatibleStoreProtocolException;
import dev.lease.host.StoreProtocol;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the protocol record of a Redis key prefix, {@code <prefix>protocol}: a start
 * records the protocol it speaks, works beside a newer protocol that works beside it (the
 * next release in a rolling deploy), and refuses one it cannot work beside, older or
 * newer, before writing anything. Releases before this one (protocol 1) recorded nothing;
 * their instances are stood for by a record written by hand, and the state they wrote by
 * a value in their whole-queue form, which this host refuses per key.
 *
 * @author Lease contributors
 */
class RedisProtocolRecordIntegrationTests {

	private static RedisTestServer server;

	private static final List<RedisLeaseHost> hosts = new ArrayList<>();

	private static final List<String> prefixes = new ArrayList<>();

	@BeforeAll
	static void startServer() {
		server = RedisTestServer.start();
	}

	@AfterAll
	static void stopServer() {
		hosts.forEach(RedisLeaseHost::close);
		try (RedisConnection connection = server.lettuce().getConnection()) {
			for (String prefix : prefixes) {
				connection.keyCommands().del(bytes(prefix + "protocol"), bytes(prefix + "handoff"));
			}
		}
		server.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "lettuce", "jedis" })
	void startRecordsTheProtocolItSpeaks(String client) {
		RedisConnectionFactory factory = factory(client);
		String prefix = prefix();
		RedisLeaseHost host = build(factory, prefix);
		assertThat(record(factory, prefix)).containsEntry("version", "2").containsEntry("works-beside-since", "2");
		assertThat(host.protocol().recorded()).isEqualTo(new StoreProtocol(2, 2));
		assertThat(host.protocol().compatible()).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "lettuce", "jedis" })
	void startBesideAnOlderProtocolItCannotWorkBesideFailsAndWritesNothing(String client) {
		RedisConnectionFactory factory = factory(client);
		String prefix = prefix();
		stamp(factory, prefix, "1", "1");
		assertThatExceptionOfType(IncompatibleStoreProtocolException.class)
			.isThrownBy(() -> RedisLeaseHost.builder(factory).keyPrefix(prefix).build())
			.withMessageContaining("Redis key '" + prefix + "protocol' records protocol 1 (works beside 1 and later)")
			.withMessageContaining("this instance speaks protocol 2 (works beside 2 and later)")
			.withMessageContaining("stop or upgrade all of them first");
		assertThat(record(factory, prefix)).containsEntry("version", "1");
		assertThat(server.keys(prefix)).as("lease state beside the record").isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "lettuce", "jedis" })
	void startBesideANewerProtocolThatWorksBesideItWorksAndKeepsTheRecord(String client) {
		RedisConnectionFactory factory = factory(client);
		String prefix = prefix();
		stamp(factory, prefix, "3", "2");
		RedisLeaseHost host = build(factory, prefix);
		assertThat(host.tryTake(LeaseKey.of("k"), LeaseHolder.of("h"), Duration.ofSeconds(5)))
			.isInstanceOf(Taken.class);
		assertThat(record(factory, prefix)).containsEntry("version", "3").containsEntry("works-beside-since", "2");
		assertThat(host.protocol().recorded()).isEqualTo(new StoreProtocol(3, 2));
		assertThat(host.protocol().compatible()).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "lettuce", "jedis" })
	void startBesideANewerProtocolThatDoesNotWorkBesideItFails(String client) {
		RedisConnectionFactory factory = factory(client);
		String prefix = prefix();
		stamp(factory, prefix, "3", "3");
		assertThatExceptionOfType(IncompatibleStoreProtocolException.class)
			.isThrownBy(() -> RedisLeaseHost.builder(factory).keyPrefix(prefix).build())
			.withMessageContaining("records protocol 3 (works beside 3 and later)")
			.withMessageContaining("deploy that release here too");
		assertThat(record(factory, prefix)).containsEntry("version", "3").containsEntry("works-beside-since", "3");
	}

	@ParameterizedTest
	@ValueSource(strings = { "lettuce", "jedis" })
	void aProtocolRecordedAfterTheStartIsReadAgain(String client) {
		RedisConnectionFactory factory = factory(client);
		String prefix = prefix();
		RedisLeaseHost host = build(factory, prefix);
		stamp(factory, prefix, "4", "4");
		assertThat(host.protocol().recorded()).isEqualTo(new StoreProtocol(4, 4));
		assertThat(host.protocol().compatible()).isFalse();
	}

	// Protocol 1 kept a key's whole queue in one value, tagged 0xC1 'L' 1 'Q'; its hosts
	// recorded no protocol, so only the value itself shows one was here.
	@ParameterizedTest
	@ValueSource(strings = { "lettuce", "jedis" })
	void aKeyInTheStateOfProtocolOneBesideThisHostIsRefusedAndLeftAsItIs(String client) {
		RedisConnectionFactory factory = factory(client);
		String prefix = prefix();
		RedisLeaseHost host = build(factory, prefix);
		LeaseKey key = LeaseKey.of("written-by-protocol-1");
		byte[] redisKey = bytes(
				prefix + "{" + Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes()) + "}");
		byte[] wholeQueue = { (byte) 0xC1, 'L', 1, 'Q', (byte) 0x93, 1, 2, 3 };
		try (RedisConnection connection = factory.getConnection()) {
			connection.stringCommands().set(redisKey, wholeQueue);
			connection.keyCommands().expire(redisKey, 60);
		}
		assertThatExceptionOfType(LeaseHostException.class)
			.isThrownBy(() -> host.tryTake(key, LeaseHolder.of("h"), Duration.ofSeconds(5)))
			.withMessageContaining("format version 1");
		try (RedisConnection connection = factory.getConnection()) {
			assertThat(connection.stringCommands().get(redisKey)).isEqualTo(wholeQueue);
			connection.keyCommands().del(redisKey);
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
		String prefix = "protocol-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		prefixes.add(prefix);
		return prefix;
	}

	private static void stamp(RedisConnectionFactory factory, String prefix, String version, String since) {
		try (RedisConnection connection = factory.getConnection()) {
			connection.hashCommands()
				.hMSet(bytes(prefix + "protocol"),
						Map.of(bytes("version"), bytes(version), bytes("works-beside-since"), bytes(since)));
		}
	}

	private static Map<String, String> record(RedisConnectionFactory factory, String prefix) {
		try (RedisConnection connection = factory.getConnection()) {
			Map<String, String> fields = new TreeMap<>();
			connection.hashCommands()
				.hGetAll(bytes(prefix + "protocol"))
				.forEach((field, value) -> fields.put(new String(field, StandardCharsets.US_ASCII),
						new String(value, StandardCharsets.US_ASCII)));
			return fields;
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
