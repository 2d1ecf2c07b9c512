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
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the failure {@link RedisLeaseHost} reports when no Redis answers at the
 * address it is given: the message names the address and what to check, so that a user
 * can act on it.
 *
 * @author Lease contributors
 */
class RedisUnreachableTests {

	@Test
	@DisplayName("Operation 1: a call to a Redis that is not running fails with LeaseHostException naming its address and what to check")
	void callToAnUnreachableRedisNamesItsAddressAndWhatToCheck() throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		LettuceConnectionFactory connections = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		connections.afterPropertiesSet();
		connections.start();
		try (RedisLeaseHost host = RedisLeaseHost.builder(connections)
			.keyPrefix("lease-unreachable-" + UUID.randomUUID() + ":")
			.build()) {
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.tryTake(LeaseKey.of("unreachable"), LeaseHolder.of("h"), Duration.ofSeconds(1)))
				.withMessageStartingWith("Redis at 127.0.0.1:" + port + " is unreachable (")
				.withMessageContaining("Connection refused")
				.withMessageContaining("check that it is running and that spring.data.redis.* points to it");
		}
		finally {
			connections.destroy();
		}
	}

	@Test
	@DisplayName("Host: failures: a host closed before Redis answered never starts; each call says it is closed")
	void hostClosedBeforeItStartedNeverStarts() throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		LettuceConnectionFactory connections = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		connections.afterPropertiesSet();
		connections.start();
		try {
			RedisLeaseHost host = RedisLeaseHost.builder(connections)
				.keyPrefix("lease-unreachable-" + UUID.randomUUID() + ":")
				.build();
			host.close();
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.tryTake(LeaseKey.of("unreachable"), LeaseHolder.of("h"), Duration.ofSeconds(1)))
				.withMessage("The Redis lease host is closed");
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.release(LeaseKey.of("unreachable"), LeaseHolder.of("h")))
				.withMessage("The Redis lease host is closed");
		}
		finally {
			connections.destroy();
		}
	}

	@Test
	void theServerIsNamedAsTheFactoryIsConfigured() {
		assertThat(
				RedisCalls.where(new LettuceConnectionFactory(new RedisStandaloneConfiguration("redis.example", 6380))))
			.isEqualTo("redis.example:6380");
		assertThat(RedisCalls.where(
				new LettuceConnectionFactory(new RedisClusterConfiguration(List.of("10.0.0.1:7000", "10.0.0.2:7001")))))
			.isEqualTo("cluster nodes 10.0.0.1:7000, 10.0.0.2:7001");
		assertThat(RedisCalls
			.where(new LettuceConnectionFactory(new RedisSentinelConfiguration("orders", Set.of("10.0.0.3:26379")))))
			.isEqualTo("master orders through sentinels 10.0.0.3:26379");
	}

}
