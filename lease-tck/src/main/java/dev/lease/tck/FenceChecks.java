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

package dev.lease.tck;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Allowance;
import dev.lease.Fence;
import dev.lease.Lease;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A grant's instant carried to a third party as a fence (Fence 1 to 9, Invariant 6, Check
 * 6.1, 6.2).
 *
 * @author Lease contributors
 */
abstract class FenceChecks extends KitGroup {

	private static final Allowance STORE = Allowance.of(Duration.ofMillis(250));

	private static final Allowance JOURNAL = Allowance.of(Duration.ofSeconds(1));

	@Test
	@DisplayName("Fence 1: expiresAt is an absolute instant on the host's clock, one term after the grant")
	void expiresAtIsAnAbsoluteInstant() {
		Instant before = Instant.now();
		Lease lease = taken(newKey(), newHolder("holder"), LONG);
		Instant after = Instant.now();
		assertThat(lease.expiresAt()).isBetween(before.plus(LONG).minus(tolerance()),
				after.plus(LONG).plus(tolerance()));
	}

	@Test
	@DisplayName("Check 6.1 (Fence 5, Invariant 6.1): a fence sits at or below expiresAt less the allowance")
	void fenceSitsAtOrBelowTheCeiling() {
		Lease lease = taken(newKey(), newHolder("holder"), LONG);
		Fence fence = Fence.mint(lease, STORE);
		assertThat(fence.instant()).isBeforeOrEqualTo(lease.expiresAt().minus(STORE.value()));
		assertThat(Duration.between(fence.instant(), lease.expiresAt())).isGreaterThanOrEqualTo(STORE.value());
		assertThat(fence.margin()).isGreaterThanOrEqualTo(STORE.value());
	}

	@Test
	@DisplayName("Check 6.2 (Fence 8, 9, Invariant 6.2): two parties' fences are each minted from expiresAt with their own allowance")
	void eachPartysFenceIsMintedFromExpiresAt() {
		Lease lease = taken(newKey(), newHolder("holder"), LONG);
		Fence store = Fence.mint(lease, STORE);
		Fence journal = Fence.mint(lease, JOURNAL);
		assertThat(store.instant()).isEqualTo(lease.expiresAt().minus(STORE.value()));
		assertThat(journal.instant()).isEqualTo(lease.expiresAt().minus(JOURNAL.value()))
			.isNotEqualTo(store.instant().minus(JOURNAL.value()));
		assertThat(journal.margin()).isEqualTo(JOURNAL.value());
	}

	@Test
	@DisplayName("Fence 3, 6: a fence, compared bare, admits work taking effect at or before it and refuses work after it")
	void fenceAdmitsAtOrBeforeAndRefusesAfter() {
		Lease lease = taken(newKey(), newHolder("holder"), LONG);
		Fence fence = Fence.mint(lease, STORE);
		assertThat(fence.admits(fence.instant().minusSeconds(1))).isTrue();
		assertThat(fence.admits(fence.instant())).isTrue();
		assertThat(fence.admits(fence.instant().plusNanos(1))).isFalse();
		assertThat(fence.admits(lease.expiresAt())).as("the allowance is never given back at the reading (Fence 7)")
			.isFalse();
	}

}
