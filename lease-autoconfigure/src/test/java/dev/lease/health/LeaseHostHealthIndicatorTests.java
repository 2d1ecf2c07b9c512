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

package dev.lease.health;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.autoconfigure.CustomLeaseHost;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeaseHostHealthIndicator}.
 *
 * @author Lease contributors
 */
class LeaseHostHealthIndicatorTests {

	@Test
	void hostThatAnswersIsUp() {
		Health health = new LeaseHostHealthIndicator(new InMemoryLeaseHost(), "memory").health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("host", "memory");
	}

	@Test
	void givenDetailsAreShownAfterTheHost() {
		Health health = new LeaseHostHealthIndicator(new InMemoryLeaseHost(), "memory",
				Map.of("durability", Map.of("status", "UNKNOWN", "reason", "CONFIG is disabled")))
			.health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("host", "memory")
			.containsEntry("durability", Map.of("status", "UNKNOWN", "reason", "CONFIG is disabled"));
	}

	@Test
	void hostThatFailsIsDownWithTheFailure() {
		Health health = new LeaseHostHealthIndicator(new UnreachableLeaseHost(), "custom").health();
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsKey("error");
	}

	static class UnreachableLeaseHost extends CustomLeaseHost {

		@Override
		public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
			throw new LeaseHostException("Connection refused");
		}

	}

}
