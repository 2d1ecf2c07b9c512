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

package dev.lease.host.inmemory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.GrantsPage;
import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Taken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link InMemoryLeaseHost} beyond the conformance kit: its clock and its
 * memory.
 *
 * @author Lease contributors
 */
class InMemoryLeaseHostTests {

	private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

	private final AtomicReference<Instant> now = new AtomicReference<>(START);

	private final InMemoryLeaseHost host = new InMemoryLeaseHost(this.now::get);

	private final LeaseHolder holder = LeaseHolder.of("holder");

	@Test
	@DisplayName("Operation 8, 10: remaining is read on the host's clock, exactly")
	void remainingIsReadOnTheHostsClock() {
		LeaseKey key = LeaseKey.of("k");
		Taken taken = (Taken) this.host.tryTake(key, this.holder, Duration.ofSeconds(10));
		assertThat(taken.expiresAt()).isEqualTo(START.plusSeconds(10));
		this.now.set(START.plusSeconds(4));
		assertThat(this.host.remaining(key, this.holder)).contains(Duration.ofSeconds(6));
	}

	@Test
	@DisplayName("State 2: a grant ends at its instant exactly: held one nanosecond before, free at it")
	void grantEndsAtItsInstant() {
		LeaseKey key = LeaseKey.of("k");
		this.host.tryTake(key, this.holder, Duration.ofSeconds(1));
		this.now.set(START.plusSeconds(1).minusNanos(1));
		assertThat(this.host.tryTake(key, LeaseHolder.of("other"), Duration.ofSeconds(1))).isInstanceOf(Held.class);
		this.now.set(START.plusSeconds(1));
		assertThat(this.host.remaining(key, this.holder)).isEmpty();
		assertThat(this.host.tryTake(key, LeaseHolder.of("other"), Duration.ofSeconds(1))).isInstanceOf(Taken.class);
	}

	@Test
	@DisplayName("Invariant 2.1: a clock that steps back never brings an ended grant back to life")
	void clockSteppingBackDoesNotReviveAGrant() {
		LeaseKey key = LeaseKey.of("k");
		this.host.tryTake(key, this.holder, Duration.ofSeconds(1));
		this.now.set(START.plusSeconds(2));
		assertThat(this.host.remaining(key, this.holder)).isEmpty();
		this.now.set(START);
		assertThat(this.host.remaining(key, this.holder)).isEmpty();
		assertThat(this.host.grants(10)).isEmpty();
	}

	@Test
	@DisplayName("A released key leaves nothing behind")
	void releasedKeysLeaveNothingBehind() {
		for (int i = 0; i < 100; i++) {
			LeaseKey key = LeaseKey.of("k" + i);
			this.host.tryTake(key, this.holder, Duration.ofSeconds(1));
			this.host.release(key, this.holder);
		}
		assertThat(this.host.storedKeys()).isZero();
	}

	@Test
	@DisplayName("Keys whose grants passed unreleased are cleaned up by later takes, without a sweeper")
	void expiredKeysAreCleanedUpByLaterTakes() {
		for (int i = 0; i < 1000; i++) {
			this.host.tryTake(LeaseKey.of("k" + i), this.holder, Duration.ofMillis(1));
		}
		assertThat(this.host.storedKeys()).isEqualTo(1000);
		this.now.set(START.plusSeconds(1));
		LeaseKey busy = LeaseKey.of("busy");
		for (int i = 0; i < 1000; i++) {
			this.host.tryTake(busy, this.holder, Duration.ofSeconds(1));
			this.host.release(busy, this.holder);
		}
		assertThat(this.host.storedKeys()).isZero();
	}

	@Test
	@DisplayName("Grants 1, 2: a pass in small pages over many keys lists every grant standing throughout exactly once, even when the key a cursor names is released before the next page")
	void passOverManyKeysListsEachStandingGrantOnce() {
		Set<LeaseKey> standing = new HashSet<>();
		for (int i = 0; i < 3000; i++) {
			LeaseKey key = LeaseKey.of("k" + i);
			this.host.tryTake(key, this.holder, Duration.ofSeconds(10));
			standing.add(key);
		}
		List<LeaseKey> listed = new ArrayList<>();
		String cursor = null;
		int pages = 0;
		do {
			GrantsPage page = this.host.grants(cursor, 7);
			assertThat(page.grants()).hasSizeLessThanOrEqualTo(7);
			page.grants().forEach((grant) -> listed.add(grant.key()));
			cursor = page.next();
			if (cursor != null) {
				// the cursor's own key leaves the host; the pass goes on after it
				LeaseKey last = listed.get(listed.size() - 1);
				this.host.release(last, this.holder);
				standing.remove(last);
			}
			pages++;
		}
		while (cursor != null && pages < 10_000);
		assertThat(cursor).isNull();
		assertThat(listed).doesNotHaveDuplicates();
		assertThat(listed).containsAll(standing);
	}

	@Test
	@DisplayName("Non-goal 10: a missing clock is refused")
	void missingClockIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryLeaseHost(null))
			.withMessageContaining("clock");
	}

}
