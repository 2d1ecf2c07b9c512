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

package dev.lease.host;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Micros}.
 *
 * @author Lease contributors
 */
class MicrosTests {

	@Test
	@DisplayName("Operation 10: an instant stored as microseconds since the epoch reads back the same")
	void instantsRoundTrip() {
		Instant instant = Instant.parse("2026-03-01T12:00:00.123456Z");
		assertThat(Micros.of(instant)).isEqualTo(1_772_366_400_123_456L);
		assertThat(Micros.toInstant(Micros.of(instant))).isEqualTo(instant);
		Instant beforeEpoch = Instant.parse("1969-12-31T23:59:59.500Z");
		assertThat(Micros.of(beforeEpoch)).isEqualTo(-500_000L);
		assertThat(Micros.toInstant(-500_000L)).isEqualTo(beforeEpoch);
	}

	@Test
	@DisplayName("Non-goal 10: a duration in whole microseconds converts without rounding")
	void durationsRoundTrip() {
		Duration duration = Duration.ofSeconds(3, 1000);
		assertThat(Micros.of(duration)).isEqualTo(3_000_001L);
		assertThat(Micros.toDuration(3_000_001L)).isEqualTo(duration);
		assertThat(Micros.of(HostArguments.DEFAULT_MAXIMUM)).isEqualTo(36_500L * 86_400 * 1_000_000);
	}

	@Test
	@DisplayName("A term in microseconds is a timed wait in nanoseconds, saturating")
	void toNanosSaturates() {
		assertThat(Micros.toNanos(1_500)).isEqualTo(1_500_000);
		assertThat(Micros.toNanos(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
	}

}
