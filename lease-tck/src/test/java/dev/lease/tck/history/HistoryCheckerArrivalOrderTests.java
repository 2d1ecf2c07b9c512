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

package dev.lease.tck.history;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.tck.history.Event.Call;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for how {@link HistoryChecker} judges arrival order (Non-goal 3): a waiter
 * arrived before another only when the history proves it, whatever the delay between a
 * call and its arrival at the host.
 *
 * @author Lease contributors
 */
class HistoryCheckerArrivalOrderTests {

	private static final Instant T0 = Instant.parse("2026-11-30T12:00:00Z");

	private static final Duration TERM = Duration.ofSeconds(1);

	private static final LeaseKey KEY = LeaseKey.of("k");

	private static final LeaseHolder X = LeaseHolder.of("x");

	private static final LeaseHolder A = LeaseHolder.of("a");

	private static final LeaseHolder B = LeaseHolder.of("b");

	private final HistoryChecker checker = new HistoryChecker(Duration.ofMillis(5), Duration.ofMillis(200),
			Duration.ofMillis(100));

	private final List<Event> history = new ArrayList<>();

	@Test
	@DisplayName("Non-goal 3: a take called first that reached the host after a later one and was served after it is no inversion")
	void takeCalledFirstButArrivingLaterIsNotAnInversion() {
		servedBeforeTheEarlierCall();
		assertThat(this.checker.violations(this.history)).isEmpty();
	}

	@Test
	@DisplayName("Non-goal 3: a waiter refused a second take before a later take was called, and served after it, is caught")
	void waiterProvedQueuedByAReentrantRefusalIsCaught() {
		servedBeforeTheEarlierCall();
		reentrant(A, 200, 201);
		assertThat(this.checker.violations(this.history)).anyMatch((violation) -> violation.startsWith("Non-goal 3"));
	}

	@Test
	@DisplayName("Non-goal 3: a reentrant refusal answered after the later take was called proves nothing about the order")
	void refusalAnsweredAfterTheLaterCallProvesNothing() {
		servedBeforeTheEarlierCall();
		reentrant(A, 390, 410);
		assertThat(this.checker.violations(this.history)).isEmpty();
	}

	@Test
	@DisplayName("Non-goal 3: a waiter seen queued on the host before a later take was called, and served after it, is caught")
	void waiterObservedQueuedIsCaught() {
		servedBeforeTheEarlierCall();
		this.history.add(new Event(Call.QUEUED, KEY, A, null, at(250), at(260), null, null));
		assertThat(this.checker.violations(this.history)).anyMatch((violation) -> violation.startsWith("Non-goal 3"));
	}

	@Test
	@DisplayName("Non-goal 3: a reentrant refusal another take of the holder may explain proves nothing")
	void refusalAnotherTakeMayExplainProvesNothing() {
		servedBeforeTheEarlierCall();
		// A take of A that failed may have left A queued or holding.
		this.history.add(new Event(Call.TAKE, KEY, A, TERM, at(20), at(30), null, new LeaseHostException("cut")));
		reentrant(A, 200, 201);
		assertThat(this.checker.violations(this.history)).noneMatch((violation) -> violation.startsWith("Non-goal 3"));
	}

	@Test
	@DisplayName("Non-goal 3: a waiter proven queued is judged against a later try take granted before it too")
	void laterTryTakeGrantedBeforeAProvenWaiterIsCaught() {
		taken(Call.TRY_TAKE, X, 0, 1, 0);
		taken(Call.TAKE, A, 100, 1102, 1100);
		reentrant(A, 200, 201);
		answer(Call.RELEASE, X, 1000, 1000, new Released());
		taken(Call.TRY_TAKE, B, 1000, 1001, 1000);
		answer(Call.RELEASE, B, 1100, 1100, new Released());
		assertThat(this.checker.violations(this.history)).anyMatch((violation) -> violation.startsWith("Non-goal 3"));
	}

	@Test
	@DisplayName("Non-goal 3: 1,000 waiters called in one order, reaching the host and served in another, with overlapping calls, are no inversion")
	void thousandWaitersServedInTheHostsOrderPass() {
		holdsLong(-10);
		answer(Call.RELEASE, X, 999, 999, new Released());
		for (int i = 0; i < 1000; i++) {
			// Called at 999 - i: the last called is served first, each 1 ms after the
			// one before, and each call overlaps every other.
			LeaseHolder waiter = LeaseHolder.of("w" + i);
			taken(Call.TAKE, waiter, 999 - i, 1000 + i, 999 + i);
			answer(Call.RELEASE, waiter, 1000 + i, 1000 + i, new Released());
		}
		assertThat(this.checker.violations(this.history)).isEmpty();
	}

	@Test
	@DisplayName("Non-goal 3: of waiters each proven queued before the next was called, served newest first, every pair is caught")
	void provenWaitersServedNewestFirstAreCaught() {
		holdsLong(-10);
		answer(Call.RELEASE, X, 2000, 2000, new Released());
		int waiters = 10;
		for (int i = 0; i < waiters; i++) {
			// Each proof is answered more than the checker's slack before the next call.
			LeaseHolder waiter = LeaseHolder.of("w" + i);
			int place = waiters - 1 - i;
			taken(Call.TAKE, waiter, 200 * i + 10, 2001 + place, 2000 + place);
			reentrant(waiter, 200 * i + 20, 200 * i + 21);
			answer(Call.RELEASE, waiter, 2001 + place, 2001 + place, new Released());
		}
		assertThat(this.checker.violations(this.history)).hasSize(waiters * (waiters - 1) / 2)
			.allMatch((violation) -> violation.startsWith("Non-goal 3"));
	}

	// X takes the key for long enough that every waiter arrives behind its grant.
	private void holdsLong(long at) {
		Lease lease = new Lease(KEY, X, at(at).plus(TERM.multipliedBy(10)));
		this.history
			.add(new Event(Call.TRY_TAKE, KEY, X, TERM.multipliedBy(10), at(at), at(at + 1), new Taken(lease), null));
	}

	// X holds; A's take is called at 100, B's at 400; X releases at 1000 and the host
	// serves B first, then A: an inversion only if A reached the host before 400.
	private void servedBeforeTheEarlierCall() {
		taken(Call.TRY_TAKE, X, 0, 1, 0);
		taken(Call.TAKE, A, 100, 1102, 1100);
		taken(Call.TAKE, B, 400, 1001, 1000);
		answer(Call.RELEASE, X, 1000, 1000, new Released());
		answer(Call.RELEASE, B, 1100, 1100, new Released());
	}

	private void taken(Call call, LeaseHolder holder, long invoked, long returned, long grantedAt) {
		Lease lease = new Lease(KEY, holder, at(grantedAt).plus(TERM));
		answer(call, holder, invoked, returned, new Taken(lease));
	}

	private void answer(Call call, LeaseHolder holder, long invoked, long returned, Object answer) {
		Duration duration = (call == Call.TAKE || call == Call.TRY_TAKE) ? TERM : null;
		this.history.add(new Event(call, KEY, holder, duration, at(invoked), at(returned), answer, null));
	}

	private void reentrant(LeaseHolder holder, long invoked, long returned) {
		this.history.add(new Event(Call.TRY_TAKE, KEY, holder, TERM, at(invoked), at(returned), null,
				new ReentrantTakeException(KEY, holder)));
	}

	private static Instant at(long millis) {
		return T0.plusMillis(millis);
	}

}
