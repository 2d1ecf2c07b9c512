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

package dev.lease.observation;

import java.time.Duration;
import java.time.Instant;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.FenceExpiredException;
import dev.lease.LeaseKey;
import dev.lease.fence.FenceRefusal;
import dev.lease.fence.FenceRefusals;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link MeterRegistryFenceRefusalListener}.
 *
 * @author Lease contributors
 */
class MeterRegistryFenceRefusalListenerTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	@DisplayName("Fence 3: every refusal counts lease.fence.refused for its party, never by key")
	void refusalsAreCountedPerParty() {
		MeterRegistryFenceRefusalListener listener = new MeterRegistryFenceRefusalListener(this.registry);
		Instant fence = Instant.parse("2026-11-30T08:00:00Z");
		FenceExpiredException refused = FenceRefusals.refused(new FenceRefusal("orders-db", LeaseKey.of("order-1"),
				fence, Duration.ofMillis(100), fence.plusMillis(250)), listener);
		FenceRefusals.refused(new FenceRefusal("orders-db", LeaseKey.of("order-2"), fence, null, null), listener);
		FenceRefusals.refused(new FenceRefusal("payments", null, fence, null, fence.plusSeconds(1)), listener);
		assertThat(this.registry.get("lease.fence.refused").tag("party", "orders-db").counter().count()).isEqualTo(2);
		assertThat(this.registry.get("lease.fence.refused").tag("party", "payments").counter().count()).isEqualTo(1);
		assertThat(this.registry.get("lease.fence.refused").meters())
			.allSatisfy((meter) -> assertThat(meter.getId().getTags()).extracting("key").containsOnly("party"));
		assertThat(refused.getParty()).isEqualTo("orders-db");
		assertThat(refused.getReading()).isEqualTo(fence.plusMillis(250));
		assertThat(refused).hasMessageContaining("late by PT0.25S");
	}

	@Test
	@DisplayName("Fence 3: the debug line of a refusal names its key, party and margin")
	void refusalLogLineNamesKeyPartyAndMargin() {
		Instant fence = Instant.parse("2026-11-30T08:00:00Z");
		String line = FenceRefusals.describe(new FenceRefusal("orders-db", LeaseKey.of("order-1"), fence,
				Duration.ofMillis(100), fence.plusMillis(250)));
		assertThat(line).contains("party 'orders-db'")
			.contains("key order-1")
			.contains("margin PT0.1S")
			.contains("late by PT0.25S");
	}

}
