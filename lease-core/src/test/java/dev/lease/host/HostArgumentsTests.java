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

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link HostArguments}.
 *
 * @author Lease contributors
 */
class HostArgumentsTests {

	private static final HostArguments MICROSECOND_HOST = HostArguments.of(Duration.ofNanos(1000),
			HostArguments.DEFAULT_MAXIMUM);

	private final LeaseKey key = LeaseKey.of("key");

	private final LeaseHolder holder = LeaseHolder.of("holder");

	@Test
	@DisplayName("Non-goal 10: a positive duration in whole steps of the host is accepted as given")
	void requireTakeAcceptsRepresentableDuration() {
		assertThat(MICROSECOND_HOST.requireTake(this.key, this.holder, Duration.ofMillis(1500)))
			.isEqualTo(Duration.ofMillis(1500));
	}

	@Test
	@DisplayName("Non-goal 10: a missing key, holder or duration is refused, naming it")
	void requireTakeRefusesMissingArguments() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MICROSECOND_HOST.requireTake(null, this.holder, Duration.ofSeconds(1)))
			.withMessage("'key' must not be null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MICROSECOND_HOST.requireTake(this.key, null, Duration.ofSeconds(1)))
			.withMessage("'holder' must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> MICROSECOND_HOST.requireTake(this.key, this.holder, null))
			.withMessage("'duration' must not be null");
	}

	@Test
	@DisplayName("Non-goal 10: zero, finer than the host and longer than the host are refused")
	void requireTakeRefusesUnrepresentableDurations() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MICROSECOND_HOST.requireTake(this.key, this.holder, Duration.ZERO))
			.withMessageContaining("must be positive");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MICROSECOND_HOST.requireTake(this.key, this.holder, Duration.ofNanos(1500)))
			.withMessageContaining("finer than this host's resolution");
		assertThatIllegalArgumentException().isThrownBy(
				() -> MICROSECOND_HOST.requireTake(this.key, this.holder, HostArguments.DEFAULT_MAXIMUM.plusDays(1)))
			.withMessageContaining("must be at most");
	}

	@Test
	@DisplayName("Operation 13, 14: remaining and release need a key and a holder")
	void requireKeyAndHolderRefusesMissingArguments() {
		HostArguments.requireKeyAndHolder(this.key, this.holder);
		assertThatIllegalArgumentException().isThrownBy(() -> HostArguments.requireKeyAndHolder(null, this.holder))
			.withMessage("'key' must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> HostArguments.requireKeyAndHolder(this.key, null))
			.withMessage("'holder' must not be null");
	}

	@Test
	@DisplayName("grants answers a positive number of grants at most")
	void requireLimitRefusesNonPositiveLimits() {
		assertThat(HostArguments.requireLimit(1)).isOne();
		assertThatIllegalArgumentException().isThrownBy(() -> HostArguments.requireLimit(0))
			.withMessage("'limit' must be positive, but was 0");
	}

	@Test
	@DisplayName("A host's resolution must be positive and its longest term no shorter")
	void ofRefusesImpossibleHosts() {
		assertThatIllegalArgumentException().isThrownBy(() -> HostArguments.of(Duration.ZERO, Duration.ofDays(1)));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> HostArguments.of(Duration.ofSeconds(1), Duration.ofMillis(1)));
	}

}
