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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A server that starts refusing {@code WAIT} after the host started with replicas-to-ack
 * (an ACL changed, a managed service's command policy): a grant the host cannot confirm
 * is given back, as one too few replicas acknowledged, never left standing for a caller
 * told it failed.
 *
 * @author Lease contributors
 */
class RedisRefusedWaitIntegrationTests {

	private static final Duration TERM = Duration.ofSeconds(60);

	private final String prefix = "lease-refused-wait-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	private RedisTestServer server;

	private RedisLeaseHost direct;

	@BeforeEach
	void start() {
		this.server = RedisTestServer.startEmbedded(RedisTestServer.freePort(), List.of());
		this.direct = RedisLeaseHost.builder(this.server.lettuce()).keyPrefix(this.prefix).build();
	}

	@AfterEach
	void stop() {
		this.direct.close();
		this.server.close();
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "take", "tryTake" })
	@DisplayName("Operation 11: with WAIT refused after the start, a take with replicas-to-ack throws and its grant is given back")
	void grantThatCannotBeConfirmedIsGivenBack(String operation) throws Exception {
		try (RedisLeaseHost host = RedisLeaseHost.builder(this.server.lettuce())
			.keyPrefix(this.prefix)
			.replicasToAck(1, Duration.ofMillis(100))
			.build()) {
			try (Jedis jedis = new Jedis(this.server.host(), this.server.port())) {
				jedis.sendCommand(Protocol.Command.ACL, "SETUSER", "default", "-wait");
			}
			LeaseKey key = LeaseKey.of("refused-wait-" + operation);
			LeaseHolder holder = LeaseHolder.of("holder");
			LeaseHostException failure = catchThrowableOfType(LeaseHostException.class, () -> {
				if ("take".equals(operation)) {
					host.take(key, holder, TERM);
				}
				else {
					host.tryTake(key, holder, TERM);
				}
			});
			assertThat(failure).as("the take's failure").isNotNull();
			assertThat(this.direct.grant(key)).as("the grant of a take told it failed").isEmpty();
			assertThat(this.direct.tryTake(key, LeaseHolder.of("next"), TERM)).isInstanceOf(Taken.class);
			assertThat(failure).hasMessageContaining("NOPERM").hasMessageContaining("the grant was given back");
		}
	}

}
