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
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Taken;
import dev.lease.TryTakeResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Expiry: a grant ends at its instant and at no other event, and a passed instant is read
 * as free at the moment of the question (Invariant 2, 3; State 2; Check 2.1 to 3.2).
 *
 * @author Lease contributors
 */
abstract class ExpiryChecks extends KitGroup {

	private static final Duration POLL = Duration.ofMillis(5);

	@Test
	@DisplayName("Check 2.1 (Invariant 2.1): a key whose holder never releases becomes takeable at the instant")
	void neverReleasedKeyBecomesTakeableAtTheInstant() throws Exception {
		LeaseKey key = newKey();
		Lease held = taken(key, newHolder("holder"), SHORT);
		Lease next = pollUntilTaken(key, newHolder("next"), held);
		assertThat(grantedAt(next, LONG)).isAfterOrEqualTo(held.expiresAt())
			.isBefore(held.expiresAt().plus(tolerance()));
	}

	@Test
	@DisplayName("Check 2.2 (Invariant 2.2): a held key does not become takeable before its instant")
	void heldKeyIsNotTakeableBeforeItsInstant() throws Exception {
		LeaseKey key = newKey();
		Lease held = taken(key, newHolder("holder"), SHORT);
		Lease next = pollUntilTaken(key, newHolder("next"), held);
		assertThat(grantedAt(next, LONG)).as("granted on the host's clock no earlier than the holder's instant")
			.isAfterOrEqualTo(held.expiresAt());
	}

	@Test
	@DisplayName("Check 3.1, 3.2 (Invariant 3): the key of a holder that stopped is held through its instant, not freed earlier")
	void keyOfAStoppedHolderStaysHeldThroughItsInstant() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("stopped");
		AtomicReference<Lease> held = new AtomicReference<>();
		Thread stopped = new Thread(() -> held.set(taken(key, holder, SHORT)));
		stopped.start();
		stopped.join();
		assertThat(held.get()).as("the stopped holder took the key").isNotNull();
		assertThat(host().remaining(key, holder)).as("nothing observes the holder's end").isPresent();
		Lease next = pollUntilTaken(key, newHolder("next"), held.get());
		assertThat(grantedAt(next, LONG)).isAfterOrEqualTo(held.get().expiresAt());
	}

	@Test
	@DisplayName("State 2, 3: a passed instant reads as free at the next question, with nothing written in between")
	void passedInstantReadsAsFree() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		taken(key, holder, SHORT);
		elapse(SHORT.plus(CLOCK_GRAIN));
		assertThat(host().remaining(key, holder)).isEmpty();
		assertThat(host().grants(Integer.MAX_VALUE)).noneMatch((lease) -> lease.key().equals(key));
		assertThat(host().release(key, holder)).isInstanceOf(NotHeld.class);
		assertThat(host().tryTake(key, newHolder("next"), LONG)).isInstanceOf(Taken.class);
	}

	// Polls try take until it answers taken: every answer before is held, and the wait
	// ends
	// within the tolerance after the holder's instant.
	private Lease pollUntilTaken(LeaseKey key, LeaseHolder next, Lease held) throws InterruptedException {
		Instant giveUp = held.expiresAt().plus(tolerance());
		while (true) {
			TryTakeResult answer = host().tryTake(key, next, LONG);
			if (answer instanceof Taken taken) {
				return taken.lease();
			}
			assertThat(answer).isInstanceOf(Held.class);
			assertThat(Instant.now()).as("the key became takeable within the tolerance after its instant")
				.isBefore(giveUp);
			Thread.sleep(POLL.toMillis());
		}
	}

}
