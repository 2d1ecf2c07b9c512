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
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Taken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Remaining: the asking holder's term as the host reads it, none for anyone else; and the
 * listing of the grants that stand (Operation 8, 9; Invariant 5; Check 5.1, 5.2).
 *
 * @author Lease contributors
 */
abstract class RemainingChecks extends KitGroup {

	private static final Duration PAUSE = Duration.ofMillis(300);

	@Test
	@DisplayName("Operation 8: remaining answers the holder's remaining term, shrinking as the host's clock runs")
	void remainingAnswersTheHoldersTerm() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		taken(key, holder, LONG);
		Duration first = host().remaining(key, holder).orElseThrow();
		assertThat(first).isLessThanOrEqualTo(LONG).isGreaterThan(LONG.minus(tolerance()));
		elapse(PAUSE);
		Duration second = host().remaining(key, holder).orElseThrow();
		assertThat(second).isLessThanOrEqualTo(first.minus(PAUSE).plus(CLOCK_GRAIN));
	}

	@Test
	@DisplayName("Operation 9 (Check 5.1): remaining answers none to a party that is not the holder")
	void remainingAnswersNoneToAnotherParty() {
		LeaseKey key = newKey();
		taken(key, newHolder("holder"), LONG);
		assertThat(host().remaining(key, newHolder("other"))).isEmpty();
		assertThat(host().remaining(newKey(), newHolder("nobody"))).isEmpty();
	}

	@Test
	@DisplayName("Check 5.1 (Invariant 5.1): a former holder whose term passed gets none and not-held, while the next holder holds")
	void formerHolderGetsNoneAndNotHeld() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder former = newHolder("former");
		LeaseHolder next = newHolder("next");
		taken(key, former, SHORT);
		elapse(SHORT.plus(CLOCK_GRAIN));
		assertThat(host().remaining(key, former)).isEmpty();
		Lease current = taken(key, next, LONG);
		assertThat(host().remaining(key, former)).isEmpty();
		assertThat(host().release(key, former)).isInstanceOf(NotHeld.class);
		assertThat(host().grants(Integer.MAX_VALUE)).contains(current);
		assertThat(host().remaining(key, next)).isPresent();
	}

	@Test
	@DisplayName("Check 5.2 (Invariant 5.1): remaining asked by another party writes nothing")
	void remainingByAnotherPartyWritesNothing() {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		Lease held = taken(key, holder, LONG);
		for (int i = 0; i < 5; i++) {
			assertThat(host().remaining(key, newHolder("other"))).isEmpty();
		}
		assertThat(host().grants(Integer.MAX_VALUE)).contains(held);
		assertThat(host().tryTake(key, newHolder("other"), LONG)).isInstanceOf(Held.class);
	}

	@Test
	@DisplayName("State 1: the standing grants list each held key once, with the instant the host holds, and never a released one")
	void grantsListTheStandingGrants() {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		Lease held = ((Taken) host().tryTake(key, holder, LONG)).lease();
		List<Lease> grants = host().grants(Integer.MAX_VALUE);
		assertThat(grants).filteredOn((lease) -> lease.key().equals(key)).containsExactly(held);
		assertThat(host().grants(1)).hasSizeLessThanOrEqualTo(1);
		host().release(key, holder);
		assertThat(host().grants(Integer.MAX_VALUE)).noneMatch((lease) -> lease.key().equals(key));
		assertThatIllegalArgumentException().isThrownBy(() -> host().grants(0));
	}

}
