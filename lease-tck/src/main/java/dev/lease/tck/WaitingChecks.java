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
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.QueuedTakes;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.Unavailable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Waiting: the operators' read of how many takes wait for a key, a snapshot that writes
 * nothing (Check 5.2). The rules, named in the tests:
 * <ol>
 * <li>Waiting 1: a key with N takes queued answers N, and one fewer as each is handed the
 * key;</li>
 * <li>Waiting 2: a free key, or a held one nobody waits for, answers none;</li>
 * <li>Waiting 3: a take withdrawn at its bound is not counted;</li>
 * <li>Waiting 5: the answer's {@code since} is when the longest-waiting take arrived,
 * within that take's call, on the host's clock.</li>
 * </ol>
 * A host that cannot tell ({@link LeaseHostConformanceKit#countsWaiting()}) answers empty
 * for every key instead, and one that keeps no arrival instants
 * ({@link LeaseHostConformanceKit#keepsArrivals()}) answers no {@code since}; an answer
 * it does give is checked all the same.
 *
 * @author Lease contributors
 */
abstract class WaitingChecks extends KitGroup {

	private static final int WAITERS = 3;

	// Long enough for the waiters to queue before it passes on a loaded machine.
	private static final Duration FIRST_TERM = Duration.ofSeconds(3);

	@Test
	@DisplayName("Waiting 1 (Check 5.2): a key with N takes queued answers N, one fewer as each is handed the key, and none once all are; the read writes nothing")
	void waitingCountsTheQueuedTakes() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder first = newHolder("holder");
		taken(key, first, LONG);
		List<Waiter> waiters = queueBehind(key, WAITERS);
		assertWaiting(key, WAITERS);
		assertWaiting(key, WAITERS);
		assertThat(host().tryTake(key, newHolder("other"), LONG)).isInstanceOf(Held.class);
		LeaseHolder releasing = first;
		for (int i = 0; i < WAITERS; i++) {
			assertThat(host().release(key, releasing)).isInstanceOf(Released.class);
			assertThat(waiters.get(i).take().answer(tolerance())).isInstanceOf(Taken.class);
			assertWaiting(key, WAITERS - i - 1);
			releasing = waiters.get(i).holder();
		}
		assertThat(host().release(key, releasing)).isInstanceOf(Released.class);
		assertWaiting(key, 0);
	}

	@Test
	@DisplayName("Waiting 2: a free key, and a held key nobody waits for, answer that none waits")
	void waitingAnswersNoneWithoutWaiters() {
		assertWaiting(newKey(), 0);
		LeaseKey key = newKey();
		taken(key, newHolder("holder"), LONG);
		assertWaiting(key, 0);
	}

	@Test
	@DisplayName("Waiting 3 (Non-goal 4): a take withdrawn at its bound is not counted, nor the take the key was handed to")
	void withdrawnTakesAreNotCounted() throws Exception {
		LeaseKey key = newKey();
		taken(key, newHolder("holder"), FIRST_TERM);
		LeaseHolder handed = newHolder("handed");
		TimedTake handedTake = takeInBackground(key, handed, LONG);
		arrived(key, handed);
		LeaseHolder withdrawn = newHolder("withdrawn");
		TimedTake withdrawnTake = takeInBackground(key, withdrawn, LONG);
		arrived(key, withdrawn);
		assertWaiting(key, 2);
		// Both bounds are the first grant's instant: one is handed the key then, the
		// other is withdrawn.
		assertThat(handedTake.answer(FIRST_TERM.plus(tolerance()))).isInstanceOf(Taken.class);
		assertThat(withdrawnTake.answer(FIRST_TERM.plus(tolerance()))).isInstanceOf(Unavailable.class);
		assertWaiting(key, 0);
		assertThat(host().release(key, handed)).isInstanceOf(Released.class);
		assertWaiting(key, 0);
	}

	@Test
	@DisplayName("Waiting 5: 'since' is when the longest-waiting take arrived, within its call on the host's clock, and the next one's once the first is handed the key")
	void sinceIsTheLongestWaitingTakesArrival() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder releasing = newHolder("holder");
		taken(key, releasing, LONG);
		for (Waiter waiter : queueBehind(key, 2)) {
			assertSince(key, waiter);
			assertThat(host().release(key, releasing)).isInstanceOf(Released.class);
			assertThat(waiter.take().answer(tolerance())).isInstanceOf(Taken.class);
			releasing = waiter.holder();
		}
		assertWaiting(key, 0);
		assertThat(host().release(key, releasing)).isInstanceOf(Released.class);
	}

	// Takes of holders of their own, each queued behind the key's grant in turn.
	private List<Waiter> queueBehind(LeaseKey key, int count) throws InterruptedException {
		List<Waiter> waiters = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			LeaseHolder holder = newHolder("waiter" + i);
			Instant called = Instant.now();
			TimedTake take = takeInBackground(key, holder, LONG);
			arrived(key, holder);
			waiters.add(new Waiter(holder, take, called, Instant.now()));
		}
		return waiters;
	}

	// The longest-waiting take arrived after its call began and before it was seen
	// queued,
	// on a clock that may differ from this JVM's by the kit's skew.
	private void assertSince(LeaseKey key, Waiter longestWaiting) {
		if (!kit().countsWaiting()) {
			return;
		}
		QueuedTakes waiting = host().waiting(key).orElseThrow();
		if (waiting.since() == null) {
			assertThat(kit().keepsArrivals()).as("a host that keeps arrival instants answers 'since'").isFalse();
			return;
		}
		assertThat(waiting.since()).as("when the longest-waiting take arrived")
			.isBetween(longestWaiting.called().minus(kit().clockSkew()),
					longestWaiting.queued().plus(kit().clockSkew()));
	}

	private void assertWaiting(LeaseKey key, int count) {
		if (!kit().countsWaiting()) {
			assertThat(host().waiting(key)).as("a host that cannot tell").isEmpty();
			return;
		}
		assertThat(host().waiting(key)).as("takes waiting for the key")
			.hasValueSatisfying((waiting) -> assertThat(waiting.count()).isEqualTo(count));
	}

	/**
	 * A take queued behind the key's grant.
	 *
	 * @param holder its holder
	 * @param take the take, on its own thread
	 * @param called this JVM's reading just before the call
	 * @param queued this JVM's reading once it was seen waiting
	 */
	private record Waiter(LeaseHolder holder, TimedTake take, Instant called, Instant queued) {

	}

}
