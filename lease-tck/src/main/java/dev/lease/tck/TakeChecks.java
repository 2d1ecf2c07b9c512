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

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Take: waits for the key, no longer than the arrival term, and is granted at the instant
 * the key becomes free (Operation 1 to 5).
 *
 * @author Lease contributors
 */
abstract class TakeChecks extends KitGroup {

	@Test
	@DisplayName("Operation 1, Fence 1: take on a free key is granted at once, expiresAt an absolute instant one term ahead")
	void takeOnFreeKeyIsGrantedAtOnce() throws Exception {
		LeaseKey key = newKey();
		Instant before = Instant.now();
		TimedTake take = takeInBackground(key, newHolder("h"), LONG);
		TakeResult answer = take.answer(tolerance());
		assertThat(answer).isInstanceOf(Taken.class);
		assertThat(take.took()).isLessThan(tolerance());
		Instant expiresAt = ((Taken) answer).expiresAt();
		assertThat(expiresAt).isBetween(before.plus(LONG).minus(tolerance()),
				Instant.now().plus(LONG).plus(tolerance()));
	}

	@Test
	@DisplayName("Operation 1, 2: take waits for a held key and is granted when the holder releases")
	void takeWaitsForHeldKeyAndIsGrantedAtRelease() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		LeaseHolder waiter = newHolder("waiter");
		taken(key, holder, LONG);
		TimedTake take = takeInBackground(key, waiter, LONG);
		arrived(key, waiter);
		assertThat(take.result()).as("a take must wait while the key is held").isNotDone();
		host().release(key, holder);
		assertThat(take.answer(tolerance())).isInstanceOf(Taken.class);
		assertThat(take.took()).isLessThan(LONG);
		assertThat(host().remaining(key, waiter)).isPresent();
	}

	@Test
	@DisplayName("Operation 2, Check 4.1: a waiter is granted as of the instant the holder's term passes, within its arrival term")
	void waiterIsGrantedAtTheInstantTheTermPasses() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		Lease held = taken(key, holder, Duration.ofMillis(1500));
		long before = System.nanoTime();
		Duration arrival = host().remaining(key, holder).orElseThrow();
		TimedTake take = takeInBackground(key, newHolder("waiter"), LONG, before);
		TakeResult answer = take.answer(arrival.plus(tolerance()));
		assertThat(answer).isInstanceOf(Taken.class);
		assertThat(grantedAt(((Taken) answer).lease(), LONG)).as("granted as of the instant the key became free")
			.isEqualTo(held.expiresAt());
		assertThat(take.took()).isLessThanOrEqualTo(arrival.plus(tolerance()));
	}

	@Test
	@DisplayName("Non-goal 1, 2: take by the holder of the key is refused and the grant's instant is not moved")
	void takeByTheHolderIsRefusedAndTheGrantIsUnchanged() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		Lease held = taken(key, holder, LONG);
		assertThatExceptionOfType(ReentrantTakeException.class).isThrownBy(() -> host().take(key, holder, LONG));
		assertThat(host().remaining(key, holder))
			.hasValueSatisfying((left) -> assertThat(left).isLessThanOrEqualTo(LONG));
		assertThat(host().grants(Integer.MAX_VALUE)).contains(held);
	}

	@Test
	@DisplayName("Interruption: an interrupted waiter is withdrawn at once and is never handed the key")
	void interruptedWaiterIsWithdrawn() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		LeaseHolder waiter = newHolder("waiter");
		taken(key, holder, LONG);
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		Thread thread = new Thread(() -> {
			try {
				thrown.set(new AssertionError("answered " + host().take(key, waiter, LONG)));
			}
			catch (Throwable ex) {
				thrown.set(ex);
			}
		});
		thread.start();
		arrived(key, waiter);
		thread.interrupt();
		thread.join(tolerance().toMillis());
		assertThat(thread.isAlive()).as("an interrupted take must return").isFalse();
		assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
		host().release(key, holder);
		assertThat(host().remaining(key, waiter)).isEmpty();
		await().atMost(tolerance())
			.untilAsserted(
					() -> assertThat(host().grants(Integer.MAX_VALUE)).noneMatch((lease) -> lease.key().equals(key)));
		assertThat(host().tryTake(key, newHolder("next"), LONG)).isInstanceOf(Taken.class);
	}

}
