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

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Released;
import dev.lease.Taken;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Release: ends the asking holder's grant and no other; not-held is an answer (Operation
 * 11 to 14; Check 5.1, 5.2).
 *
 * @author Lease contributors
 */
abstract class ReleaseChecks extends KitGroup {

	@Test
	@DisplayName("Operation 11: release ends the holder's grant and the key is free")
	void releaseEndsTheHoldersGrant() {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		taken(key, holder, LONG);
		assertThat(host().release(key, holder)).isInstanceOf(Released.class);
		assertThat(host().remaining(key, holder)).isEmpty();
		assertThat(host().tryTake(key, newHolder("next"), LONG)).isInstanceOf(Taken.class);
	}

	@Test
	@DisplayName("Operation 12, 14 (Check 5.1): release by a party that is not the holder answers not-held, never an error")
	void releaseByAnotherPartyAnswersNotHeld() {
		LeaseKey key = newKey();
		taken(key, newHolder("holder"), LONG);
		assertThat(host().release(key, newHolder("other"))).isInstanceOf(NotHeld.class);
		assertThat(host().release(newKey(), newHolder("nobody"))).isInstanceOf(NotHeld.class);
	}

	@Test
	@DisplayName("Operation 13 (Check 5.2): release by another party does not reach the holder's grant and writes nothing")
	void releaseByAnotherPartyDoesNotReachTheGrant() {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		Lease held = taken(key, holder, LONG);
		for (int i = 0; i < 5; i++) {
			assertThat(host().release(key, newHolder("other"))).isInstanceOf(NotHeld.class);
		}
		assertThat(host().grants(Integer.MAX_VALUE)).contains(held);
		assertThat(host().remaining(key, holder)).isPresent();
		assertThat(host().tryTake(key, newHolder("other"), LONG)).isInstanceOf(Held.class);
	}

	@Test
	@DisplayName("Operation 11, 12: a second release by the same holder answers not-held")
	void secondReleaseAnswersNotHeld() {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		taken(key, holder, LONG);
		assertThat(host().release(key, holder)).isInstanceOf(Released.class);
		assertThat(host().release(key, holder)).isInstanceOf(NotHeld.class);
	}

	@Test
	@DisplayName("Operation 2, 11: release hands the key to the first waiter in the same step, so nobody slips in between")
	void releaseHandsTheKeyToTheWaiterAtOnce() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		taken(key, holder, LONG);
		LeaseHolder waiter = newHolder("waiter");
		TimedTake take = takeInBackground(key, waiter, LONG);
		arrived(key, waiter);
		assertThat(host().release(key, holder)).isInstanceOf(Released.class);
		assertThat(host().tryTake(key, newHolder("late"), LONG)).isInstanceOf(Held.class);
		assertThat(take.answer(tolerance())).isInstanceOf(Taken.class);
	}

}
