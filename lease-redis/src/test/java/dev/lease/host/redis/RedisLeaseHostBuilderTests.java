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

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link RedisLeaseHost.Builder}: options are checked before Redis is asked.
 *
 * @author Lease contributors
 */
class RedisLeaseHostBuilderTests {

	private final LettuceConnectionFactory factory = new LettuceConnectionFactory(
			new RedisStandaloneConfiguration("127.0.0.1", 1));

	@Test
	@DisplayName("Identity 1: a key prefix that could break the injective, one-slot key mapping is refused")
	void keyPrefixIsValidated() {
		for (String prefix : new String[] { "", "a{", "b}", "c*", "d?", "e[", "f]", "g\\", "h i", "j\u00e9", "k\n" }) {
			assertThatIllegalArgumentException().as(prefix)
				.isThrownBy(() -> RedisLeaseHost.builder(this.factory).keyPrefix(prefix));
		}
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RedisLeaseHost.builder(this.factory).keyPrefix("x".repeat(129)));
		assertThatNoException().isThrownBy(() -> RedisLeaseHost.builder(this.factory).keyPrefix("app:lease/v1."));
	}

	@Test
	@DisplayName("replicas-to-ack takes a non-negative count and a positive timeout")
	void replicasToAckIsValidated() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RedisLeaseHost.builder(this.factory).replicasToAck(-1, Duration.ofSeconds(1)));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RedisLeaseHost.builder(this.factory).replicasToAck(1, Duration.ZERO));
		assertThatIllegalArgumentException().isThrownBy(() -> RedisLeaseHost.builder(null));
	}

	@Test
	@DisplayName("the durability check interval is zero (no schedule) or positive")
	void durabilityCheckIntervalIsValidated() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RedisLeaseHost.builder(this.factory).durabilityCheckInterval(Duration.ofSeconds(-1)));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RedisLeaseHost.builder(this.factory).durabilityCheckInterval(null));
		assertThatNoException()
			.isThrownBy(() -> RedisLeaseHost.builder(this.factory).durabilityCheckInterval(Duration.ZERO));
	}

}
