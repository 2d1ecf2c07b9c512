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

package dev.lease;

import java.time.Duration;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link LeaseDurations}.
 *
 * @author Lease contributors
 */
class LeaseDurationsTests {

	private static final Duration MICROSECOND = Duration.ofNanos(1000);

	private static final Duration CENTURY = Duration.ofDays(36_500);

	@Test
	@DisplayName("Non-goal 10: a positive, representable duration is accepted as given")
	void acceptsRepresentableDuration() {
		assertThat(LeaseDurations.require(Duration.ofMillis(1500), MICROSECOND, CENTURY))
			.isEqualTo(Duration.ofMillis(1500));
		assertThat(LeaseDurations.require(MICROSECOND, MICROSECOND, CENTURY)).isEqualTo(MICROSECOND);
	}

	@Test
	@DisplayName("Non-goal 10: zero, negative, finer than the host and longer than the host are refused, naming why")
	void refusesUnrepresentableDurations() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LeaseDurations.require(Duration.ZERO, MICROSECOND, CENTURY))
			.withMessage("'duration' must be positive, but was PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LeaseDurations.require(Duration.ofSeconds(-1), MICROSECOND, CENTURY))
			.withMessageContaining("must be positive");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LeaseDurations.require(Duration.ofNanos(1500), MICROSECOND, CENTURY))
			.withMessageContaining("finer than this host's resolution");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LeaseDurations.require(CENTURY.plusDays(1), MICROSECOND, CENTURY))
			.withMessageContaining("must be at most");
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseDurations.require(null, MICROSECOND, CENTURY))
			.withMessage("'duration' must not be null");
	}

}
