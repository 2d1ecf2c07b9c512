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
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.host.Withdrawals;
import dev.lease.tck.faults.SilencedStoreWaiters;
import dev.lease.test.support.RedisTestServer;
import dev.lease.test.support.TcpProxy;

/**
 * Tests that a waiting take returns by its bound plus {@link Withdrawals#ANSWER_MARGIN}
 * when Redis stops answering (Host: silence): with the host's answer, or
 * {@link LeaseHostException} when none can be known, blocking and non-blocking, whether
 * the server is killed or every byte to it is dropped. The client is Lettuce as Spring
 * Boot configures it, whose command timeout (60 s) is far past the bound, and which keeps
 * commands while it reconnects.
 *
 * @author Lease contributors
 */
class RedisSilentServerIntegrationTests {

	private final String prefix = "lease-silent-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	private RedisTestServer server;

	private TcpProxy proxy;

	private RedisConnectionFactory proxied;

	private RedisLeaseHost direct;

	private RedisLeaseHost host;

	@BeforeEach
	void start() throws Exception {
		this.server = RedisTestServer.startEmbedded(RedisTestServer.freePort(), List.of());
		this.proxy = TcpProxy.to(this.server.port());
		this.proxied = proxiedFactory(new RedisStandaloneConfiguration("127.0.0.1", this.proxy.port()));
		this.direct = RedisLeaseHost.builder(this.server.lettuce()).keyPrefix(this.prefix).build();
		this.host = RedisLeaseHost.builder(this.proxied).keyPrefix(this.prefix).build();
	}

	@AfterEach
	void stop() throws Exception {
		this.proxy.close();
		this.host.close();
		this.direct.close();
		((DisposableBean) this.proxied).destroy();
		this.server.close();
	}

	@Test
	@DisplayName("Host: silence. With every byte to Redis dropped, each waiting take returns by its bound plus the margin")
	void waitersReturnByTheirBoundWhenRedisIsSilent() throws Exception {
		SilencedStoreWaiters.assertEachAnswersByItsBound(this.direct, this.host, this::queued, this.proxy::blackhole,
				Duration.ZERO);
	}

	@Test
	@DisplayName("Host: silence. With Redis killed under them, each waiting take returns by its bound plus the margin")
	void waitersReturnByTheirBoundWhenRedisIsKilled() throws Exception {
		SilencedStoreWaiters.assertEachAnswersByItsBound(this.direct, this.host, this::queued, this.server::stopServer,
				Duration.ZERO);
	}

	// The client under test, as Spring Boot configures it by default.
	RedisConnectionFactory proxiedFactory(RedisStandaloneConfiguration configuration) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private long queued(LeaseKey key) {
		RedisConnectionFactory connections = this.server.lettuce();
		try (RedisConnection connection = connections.getConnection()) {
			byte[] queue = (new String(new RedisKeyCodec(this.prefix).redisKey(key), StandardCharsets.US_ASCII) + ":q")
				.getBytes(StandardCharsets.US_ASCII);
			Long count = connection.zSetCommands().zCard(queue);
			return (count != null) ? count : 0;
		}
	}

}
