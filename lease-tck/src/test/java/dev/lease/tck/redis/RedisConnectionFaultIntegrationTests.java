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

package dev.lease.tck.redis;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

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
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Taken;
import dev.lease.host.redis.RedisLeaseHost;
import dev.lease.tck.faults.TcpProxy;
import dev.lease.tck.history.HistoryAssertions;
import dev.lease.tck.history.RecordingLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RedisLeaseHost} when its connection is cut mid-operation, through a
 * TCP proxy on the loopback interface: the caller gets {@link LeaseHostException}, and
 * the server holds either the whole change or none of it. Every call goes through one
 * {@link RecordingLeaseHost}; each test ends with the history checked against the atom
 * and no Redis key left under its prefix.
 *
 * @author Lease contributors
 */
class RedisConnectionFaultIntegrationTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	// A request crosses the proxy after this delay, and its reply after as much again.
	private static final Duration LATENCY = Duration.ofMillis(600);

	private static RedisTestServer server;

	private static RedisConnectionFactory directConnections;

	// A prefix of the test's own, so that what it leaves behind can be found.
	private final String prefix = "lease-fault-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	private RedisLeaseHost directHost;

	private RecordingLeaseHost direct;

	private TcpProxy proxy;

	private LettuceConnectionFactory proxied;

	private RedisLeaseHost proxiedHost;

	private RecordingLeaseHost host;

	private final LeaseKey key = LeaseKey.of("fault:" + UUID.randomUUID());

	private final LeaseHolder holder = LeaseHolder.of("faulty");

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
	@DisplayName("A try take whose request is cut before it reaches Redis fails with LeaseHostException and takes nothing")
	void tryTakeCutBeforeTheServerLeavesNoGrant() throws Exception {
		CompletableFuture<?> call = this.proxy.cutWhileInFlight(() -> this.host.tryTake(this.key, this.holder, TERM),
				LATENCY, LATENCY.dividedBy(3));
		assertFailedWithLeaseHostException(call);
		assertThat(this.direct.remaining(this.key, this.holder)).isEmpty();
		HistoryAssertions.assertFreeForAnother(this.direct, this.key);
		assertAllowedAndNothingLeft();
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
	@DisplayName("A release cut on its way fails with LeaseHostException and leaves the grant whole, its instant unmoved")
	void releaseCutBeforeTheServerLeavesTheGrantWhole() throws Exception {
		Taken taken = (Taken) this.direct.tryTake(this.key, this.holder, TERM);
		CompletableFuture<?> call = this.proxy.cutWhileInFlight(() -> this.host.release(this.key, this.holder), LATENCY,
				LATENCY.dividedBy(3));
		assertFailedWithLeaseHostException(call);
		assertThat(this.direct.grants(Integer.MAX_VALUE)).contains(taken.lease());
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

	private void assertAllowedAndNothingLeft() {
		HistoryAssertions.assertAllowedAndNothingLeft(this.direct, HistoryAssertions.TOLERANCE,
				() -> server.keys(this.prefix));
	}

	private static void assertFailedWithLeaseHostException(CompletableFuture<?> call) {
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(call::get)
			.withRootCauseInstanceOf(Exception.class)
			.satisfies((ex) -> assertThat(ex.getCause()).isInstanceOf(LeaseHostException.class));
	}

}
