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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.async.RedisAsyncCommands;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.AsyncLeaseHost;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.test.support.RedisTestServer;
import dev.lease.test.support.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lettuce keeps the commands given it while it reconnects, as Spring Boot configures it,
 * and sends them once it is connected again. A non-blocking take that gave up meanwhile
 * (its command timeout) must not be among them: its caller was told it failed.
 *
 * @author Lease contributors
 */
class LettuceAsyncReconnectionIntegrationTests {

	private static final Duration TERM = Duration.ofMinutes(2);

	@Test
	@DisplayName("Host: failures, Operation 7: a non-blocking take that timed out while Lettuce reconnected is not sent once it reconnects, so no grant is made after the take failed")
	void takeThatTimedOutWhileReconnectingIsNotSentLater() throws Exception {
		assertTimedOutTakeNotSentLater(LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(1)));
	}

	// Lettuce's own expiry of a command runs on its timer, whose ticks can come after
	// the host gave up, and after Lettuce reconnected: only the host's cancelling the
	// command keeps it from being sent then.
	@Test
	@DisplayName("Host: failures, Operation 7: a non-blocking take that the host gave up is not sent once Lettuce reconnects, even while Lettuce's own expiry of the command is later")
	void takeTheHostGaveUpIsNotSentLater() throws Exception {
		assertTimedOutTakeNotSentLater(LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofSeconds(1))
			.clientOptions(
					ClientOptions.builder().timeoutOptions(TimeoutOptions.enabled(Duration.ofMinutes(10))).build()));
	}

	private void assertTimedOutTakeNotSentLater(LettuceClientConfiguration.LettuceClientConfigurationBuilder client)
			throws Exception {
		try (RedisTestServer server = RedisTestServer.startEmbedded(RedisTestServer.freePort(), List.of());
				TcpProxy proxy = TcpProxy.to(server.port())) {
			LettuceConnectionFactory factory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration("127.0.0.1", proxy.port()), client.build());
			factory.afterPropertiesSet();
			factory.start();
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory).build();
					RedisLeaseHost direct = RedisLeaseHost.builder(server.lettuce()).build()) {
				AsyncLeaseHost async = host.async();
				assertThat(answer(async, LeaseKey.of("warm-" + UUID.randomUUID()))).isInstanceOf(Taken.class);
				proxy.refuse();
				proxy.cut();
				await("Lettuce finds its connection gone and reconnects").atMost(Duration.ofSeconds(30))
					.until(() -> !sharedConnectionOpen(factory));
				LeaseKey key = LeaseKey.of("timed-out-" + UUID.randomUUID());
				LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
				CompletableFuture<TryTakeResult> take = async.tryTake(key, holder, TERM).toCompletableFuture();
				assertThat(take).failsWithin(Duration.ofSeconds(30))
					.withThrowableOfType(ExecutionException.class)
					.withCauseInstanceOf(LeaseHostException.class);
				proxy.restore();
				// Lettuce sends what it kept before anything given it later: once a take
				// answers again, the timed-out one would have run.
				await("the host answers through the proxy again").atMost(Duration.ofSeconds(60))
					.ignoreExceptions()
					.until(() -> answer(async, LeaseKey.of("probe-" + UUID.randomUUID())) instanceof Taken);
				assertThat(direct.remaining(key, holder)).as("a grant made after the take failed").isEmpty();
			}
			finally {
				factory.destroy();
			}
		}
	}

	@SuppressWarnings("deprecation")
	private static boolean sharedConnectionOpen(LettuceConnectionFactory factory) {
		try (LettuceConnection connection = (LettuceConnection) factory.getConnection()) {
			return ((RedisAsyncCommands<byte[], byte[]>) connection.getNativeConnection()).getStatefulConnection()
				.isOpen();
		}
	}

	private static TryTakeResult answer(AsyncLeaseHost async, LeaseKey key) throws Exception {
		return async.tryTake(key, LeaseHolder.of("probe-" + UUID.randomUUID()), TERM)
			.toCompletableFuture()
			.get(5, TimeUnit.SECONDS);
	}

}
