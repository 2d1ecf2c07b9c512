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
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.GrantsPage;
import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisLeaseHost} on values an earlier snapshot of this release stored,
 * before grants kept their start: the plain grant of format version 1 and the head of
 * format version 2 are still read, the grant honoured and said to have no known start,
 * and the key's next grant is stored in format version 3 with its start.
 *
 * @author Lease contributors
 */
class RedisEarlierFormatIntegrationTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static RedisTestServer server;

	private static RedisConnectionFactory factory;

	private static RedisLeaseHost host;

	private static String prefix;

	@BeforeAll
	static void startHost() {
		server = RedisTestServer.start();
		factory = server.lettuce();
		prefix = "lease-earlier-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		host = RedisLeaseHost.builder(factory).keyPrefix(prefix).build();
	}

	@AfterAll
	static void stopHost() {
		host.close();
		try (RedisConnection connection = factory.getConnection()) {
			connection.keyCommands().del(bytes(prefix + "protocol"));
		}
		server.close();
	}

	@ParameterizedTest(name = "stored as {0}")
	@ValueSource(strings = { "plain", "queued" })
	@DisplayName("Grants 8: a grant an earlier snapshot stored without its start stands and is read and listed without one; the key's next grant says when it began")
	void grantOfAnEarlierFormatStandsWithoutItsStart(String form) {
		LeaseKey key = LeaseKey.of("earlier-" + form + "-" + UUID.randomUUID());
		byte[] redisKey = bytes(
				prefix + "{" + Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes()) + "}");
		LeaseHolder earlier = LeaseHolder.of("earlier");
		LeaseHolder next = LeaseHolder.of("next");
		try (RedisConnection connection = factory.getConnection()) {
			RedisStoredState.writeEarlierGrant(connection, redisKey, form, TERM, "earlier");
		}
		Lease stored = host.grant(key).orElseThrow();
		assertThat(stored.holder()).isEqualTo(earlier);
		assertThat(host.grantedAt(stored)).as("the start an earlier snapshot did not keep").isEmpty();
		GrantsPage page = pageListing(stored);
		assertThat(page.grantedAt(stored)).as("listed without a start").isEmpty();
		assertThat(host.tryTake(key, next, TERM)).as("the earlier grant, honoured").isInstanceOf(Held.class);
		assertThat(host.grant(key)).as("read again after a refused take").contains(stored);
		assertThat(host.grantedAt(stored)).isEmpty();
		assertThat(host.release(key, earlier)).isInstanceOf(Released.class);
		Lease taken = ((Taken) host.tryTake(key, next, TERM)).lease();
		assertThat(host.grantedAt(taken)).contains(taken.expiresAt().minus(TERM));
		assertThat(value(redisKey)).startsWith((byte) 0xC1, (byte) 'L', (byte) 3, (byte) 'G');
		assertThat(host.release(key, next)).isInstanceOf(Released.class);
	}

	// The page of a pass that lists the grant: a SCAN step of a shared server may list
	// none of the prefix's keys.
	private static GrantsPage pageListing(Lease grant) {
		String cursor = null;
		do {
			GrantsPage page = host.grants(cursor, 100);
			if (page.grants().contains(grant)) {
				return page;
			}
			cursor = page.next();
		}
		while (cursor != null);
		throw new AssertionError(grant + " is not listed");
	}

	private static byte[] value(byte[] redisKey) {
		try (RedisConnection connection = factory.getConnection()) {
			return connection.stringCommands().get(redisKey);
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
