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
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.TryTakeResult;
import dev.lease.test.support.RedisTestServer;

import static org.awaitility.Awaitility.await;

/**
 * {@code WAIT} blocks the client that sends it, and with it every command queued behind
 * it on that connection. Lettuce's connection factory shares one native connection among
 * all of an application's calls by default, so a grant waiting there for its replicas
 * would hold up every other call, the host's and the application's, for up to the replica
 * timeout; a call that gives up meanwhile (its command timeout) would still run once the
 * {@code WAIT} ends, after its caller was told it failed.
 *
 * @author Lease contributors
 */
class RedisAcknowledgementConnectionIntegrationTests {

	private static final Duration TERM = Duration.ofMinutes(2);

	// A WAIT on the server with no replica waits this long.
	private static final Duration REPLICA_TIMEOUT = Duration.ofSeconds(20);

	// Shorter than the replica timeout: a call held up behind a WAIT gives up, and
	// Lettuce
	// gives up the WAIT itself after this long.
	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(6);

	@Test
	@DisplayName("Host: failures, Operation 7: with replicas-to-ack on Lettuce's shared connection, a grant waiting for its replicas holds up no other call, and no call that failed takes effect after it returned")
	void grantWaitingForReplicasHoldsUpNoOtherCall() throws Exception {
		try (RedisTestServer alone = RedisTestServer.startEmbedded(RedisTestServer.freePort(), List.of())) {
			LettuceConnectionFactory factory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration("127.0.0.1", alone.port()),
					LettuceClientConfiguration.builder().commandTimeout(COMMAND_TIMEOUT).build());
			factory.afterPropertiesSet();
			factory.start();
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory).replicasToAck(1, REPLICA_TIMEOUT).build()) {
				CompletableFuture<TryTakeResult> waiting = CompletableFuture
					.supplyAsync(() -> host.tryTake(LeaseKey.of("waits-" + UUID.randomUUID()), holder(), TERM));
				RedisAcknowledgementIntegrationTests.awaitBlockedInWait(alone.lettuce());

				LeaseKey other = LeaseKey.of("other-" + UUID.randomUUID());
				LeaseHolder otherHolder = holder();
				CompletableFuture<TryTakeResult> otherTake = CompletableFuture
					.supplyAsync(() -> host.tryTake(other, otherHolder, TERM));
				SoftAssertions softly = new SoftAssertions();
				softly.assertThatCode(() -> host.remaining(LeaseKey.of("read-" + UUID.randomUUID()), holder()))
					.as("a question about another key, asked while a grant waits for its replicas")
					.doesNotThrowAnyException();
				softly.assertThatCode(() -> {
					try (RedisConnection connection = factory.getConnection()) {
						connection.ping();
					}
				}).as("the application's own command").doesNotThrowAnyException();
				softly.assertThat(waiting)
					.as("answered while the first grant still waits for its replicas")
					.isNotDone();

				// No replica acknowledges either grant: each is given back and its take
				// fails.
				softly.assertThat(waiting)
					.failsWithin(REPLICA_TIMEOUT.multipliedBy(2))
					.withThrowableOfType(ExecutionException.class)
					.withCauseInstanceOf(LeaseHostException.class);
				softly.assertThat(otherTake)
					.failsWithin(REPLICA_TIMEOUT.multipliedBy(2))
					.withThrowableOfType(ExecutionException.class)
					.withCauseInstanceOf(LeaseHostException.class);
				// read once the connection answers again
				Optional<Duration> ghost = await().atMost(Duration.ofSeconds(30))
					.ignoreExceptions()
					.until(() -> host.remaining(other, otherHolder), (remaining) -> true);
				softly.assertThat(ghost).as("a grant to a take that failed, made after it returned").isEmpty();
				softly.assertAll();
			}
			finally {
				factory.destroy();
			}
		}
	}

	private static LeaseHolder holder() {
		return LeaseHolder.of("holder-" + UUID.randomUUID());
	}

}
