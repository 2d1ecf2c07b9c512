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
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisLeaseHost} on a server whose clock stepped back: the key's stored
 * latest reading is ahead of Redis {@code TIME}, so the key's own clock stands still
 * until {@code TIME} catches up. A grant made then must not be expired by Redis before
 * its instant on the key's clock. The stored state is written directly, as a clock that
 * stepped back after the last write would leave it; the test starts its own server.
 *
 * @author Lease contributors
 */
class RedisClockStepBackIntegrationTests {

	private static final Duration AHEAD = Duration.ofSeconds(6);

	private static final Duration TERM = Duration.ofSeconds(2);

	@ParameterizedTest(name = "stored as {0}")
	@ValueSource(strings = { "plain", "queued" })
	@DisplayName("Check 2.2, Invariant 1.2: with the key's latest reading ahead of TIME, a grant stands to its instant on the key's clock and Redis does not expire it early")
	void grantStandsToItsInstantAfterTheClockSteppedBack(String form) throws Exception {
		try (RedisTestServer server = RedisTestServer.startEmbedded(RedisTestServer.freePort(), List.of())) {
			RedisConnectionFactory factory = server.lettuce();
			String prefix = "lease-clock-" + UUID.randomUUID().toString().substring(0, 8) + ":";
			try (RedisLeaseHost host = RedisLeaseHost.builder(factory).keyPrefix(prefix).build()) {
				LeaseKey key = LeaseKey.of("stepped-back-" + UUID.randomUUID());
				byte[] redisKey = (prefix + "{" + Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes())
						+ "}")
					.getBytes(StandardCharsets.US_ASCII);
				LeaseHolder first = LeaseHolder.of("first");
				LeaseHolder second = LeaseHolder.of("second");
				try (RedisConnection connection = factory.getConnection()) {
					RedisStoredState.writeEndedGrantAhead(connection, redisKey, form, AHEAD, "earlier");
				}
				Taken taken = (Taken) host.tryTake(key, first, TERM);
				// Granted on the key's clock: its latest reading plus the term.
				assertThat(taken.expiresAt()).isAfter(Instant.now().plus(AHEAD));
				// Until the instant (less a margin for the two readings of one machine
				// clock), first holds the key: the key was not expired under it.
				Instant until = taken.expiresAt().minusMillis(500);
				while (Instant.now().isBefore(until)) {
					assertThat(host.tryTake(key, second, TERM))
						.as("another holder's tryTake at %s, before first's instant %s", Instant.now(),
								taken.expiresAt())
						.isInstanceOf(Held.class);
					assertThat(host.remaining(key, first)).isPresent();
					try (RedisConnection connection = factory.getConnection()) {
						assertThat(connection.keyCommands().exists(redisKey)).isTrue();
					}
					Thread.sleep(250);
				}
				// And it ends at its instant (Check 2.1).
				Thread.sleep(Duration.between(Instant.now(), taken.expiresAt()).plusMillis(100).toMillis());
				assertThat(host.tryTake(key, second, TERM)).isInstanceOf(Taken.class);
			}
		}
	}

}
