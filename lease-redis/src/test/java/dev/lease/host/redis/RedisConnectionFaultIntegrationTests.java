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
import java.util.Collection;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.NotHeld;
import dev.lease.tck.faults.ConnectionFaultScenarios;
import dev.lease.tck.history.HistoryAssertions;
import dev.lease.tck.history.RecordingLeaseHost;
import dev.lease.test.support.RedisTestServer;
import dev.lease.test.support.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisLeaseHost} when its connection is cut mid-operation, through a
 * TCP proxy on the loopback interface: the caller gets {@link LeaseHostException}, and
 * the server holds either the whole change or none of it. Every call goes through one
 * {@link RecordingLeaseHost}; each test ends with the history checked against the atom
 * and no Redis key left under its prefix.
 *
 * @author Lease contributors
 */
class RedisConnectionFaultIntegrationTests extends ConnectionFaultScenarios {

	private static RedisTestServer server;

	private static RedisConnectionFactory directConnections;

	// A prefix of the test's own, so that what it leaves behind can be found.
	private final String prefix = "lease-fault-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	private RedisLeaseHost directHost;

	private LettuceConnectionFactory proxied;

	private RedisLeaseHost proxiedHost;

	@BeforeAll
	static void startServer() {
		server = RedisTestServer.start();
		directConnections = server.lettuce();
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@BeforeEach
	void connectThroughProxy() throws Exception {
		this.proxy = TcpProxy.to(server.port());
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofSeconds(3))
			.clientOptions(ClientOptions.builder()
				.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
				.build())
			.build();
		this.proxied = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", this.proxy.port()),
				client);
		this.proxied.afterPropertiesSet();
		this.proxied.start();
		this.proxiedHost = RedisLeaseHost.builder(this.proxied).keyPrefix(this.prefix).build();
		this.directHost = RedisLeaseHost.builder(directConnections).keyPrefix(this.prefix).build();
		this.direct = new RecordingLeaseHost(this.directHost);
		this.host = this.direct.alongside(this.proxiedHost);
	}

	@AfterEach
	void disconnect() {
		this.proxy.close();
		try {
			this.proxiedHost.close();
			this.directHost.close();
		}
		finally {
			this.proxied.destroy();
		}
	}

	@Test
	@DisplayName("A try take whose reply is cut fails with LeaseHostException; its grant is the holder's to find and release")
	void tryTakeWithLostReplyLeavesAGrantItsHolderCanRelease() throws Exception {
		CompletableFuture<?> call = this.proxy.cutWhileInFlight(() -> this.host.tryTake(this.key, this.holder, TERM),
				LATENCY, LATENCY.multipliedBy(3).dividedBy(2));
		assertFailedWithLeaseHostException(call);
		// The script ran: the grant stands, and only its holder can end it (Invariant 5).
		assertThat(this.direct.remaining(this.key, this.holder)).isPresent();
		assertThat(this.direct.release(this.key, LeaseHolder.of("other"))).isInstanceOf(NotHeld.class);
		assertThat(this.direct.release(this.key, this.holder)).isNotInstanceOf(NotHeld.class);
		assertAllowedAndNothingLeft();
	}

	@Test
	@DisplayName("A release whose reply is cut fails with LeaseHostException, and the key is free: the whole release happened")
	void releaseWithLostReplyHappenedWhole() throws Exception {
		this.direct.tryTake(this.key, this.holder, TERM);
		CompletableFuture<?> call = this.proxy.cutWhileInFlight(() -> this.host.release(this.key, this.holder), LATENCY,
				LATENCY.multipliedBy(3).dividedBy(2));
		assertFailedWithLeaseHostException(call);
		assertThat(this.direct.remaining(this.key, this.holder)).isEmpty();
		HistoryAssertions.assertFreeForAnother(this.direct, this.key);
		assertAllowedAndNothingLeft();
	}

	@Override
	protected Callable<? extends Collection<?>> leftovers() {
		return () -> server.keys(this.prefix);
	}

}
