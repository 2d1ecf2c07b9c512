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

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link Fence} and {@link Allowance}.
 *
 * @author Lease contributors
 */
class FenceTests {

	private static final Lease LEASE = new Lease(LeaseKey.of("k"), LeaseHolder.of("h"),
			Instant.parse("2026-11-30T12:00:00Z"));

	@Test
	@DisplayName("Check 6.1 (Fence 5): a fence is minted at expiresAt less its party's allowance")
	void mintsAtTheCeiling() {
		Fence fence = Fence.mint(LEASE, Allowance.of(Duration.ofMillis(250)));
		assertThat(fence.instant()).isEqualTo(Instant.parse("2026-11-30T11:59:59.750Z"));
		assertThat(fence.margin()).isEqualTo(Duration.ofMillis(250));
	}

	@Test
	@DisplayName("Fence 9: a fence offers no way to make another fence from itself")
	void offersNoDerivation() {
		assertThat(Arrays.stream(Fence.class.getMethods()).map(Method::getReturnType)).filteredOn(Fence.class::equals)
			.hasSize(1);
	}

	@Test
	@DisplayName("Invariant 6.1: a negative allowance is refused")
	void refusesNegativeAllowance() {
		assertThatIllegalArgumentException().isThrownBy(() -> Allowance.of(Duration.ofMillis(-1)))
			.withMessage("'allowance' must not be negative, but was PT-0.001S");
	}

}
