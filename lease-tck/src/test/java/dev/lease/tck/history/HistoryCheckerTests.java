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
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.ReentrantTakeException;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.Unavailable;
import dev.lease.tck.history.Event.Call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link HistoryChecker}: hand-written histories, each consistent or breaking
 * one rule.
 *
 * @author Lease contributors
 */
class HistoryCheckerTests {

	private static final Instant T0 = Instant.parse("2026-11-30T12:00:00Z");

	private static final Duration TERM = Duration.ofSeconds(1);

	private static final LeaseKey KEY = LeaseKey.of("k");

	private static final LeaseHolder A = LeaseHolder.of("a");

	private static final LeaseHolder B = LeaseHolder.of("b");

	private static final LeaseHolder C = LeaseHolder.of("c");

	private final HistoryChecker checker = new HistoryChecker(Duration.ofMillis(5), Duration.ofMillis(200),
			Duration.ofMillis(100));

	private final List<Event> history = new ArrayList<>();

	@Test
	@DisplayName("A history of take, release, handoff and expiry the atom allows has no violation")
	void consistentHistoryPasses() {
		taken(Call.TRY_TAKE, A, 0, 1, 0);
		taken(Call.TAKE, B, 100, 400, 300);
		answer(Call.RELEASE, A, 300, 301, new Released());
		answer(Call.TRY_TAKE, C, 350, 351, new Held());
		answer(Call.REMAINING, B, 500, 501, Optional.of(Duration.ofMillis(800)));
		answer(Call.RELEASE, A, 600, 601, new NotHeld());
		taken(Call.TRY_TAKE, C, 1400, 1401, 1400);
		this.checker.check(this.history);
	}

	@Test
	@DisplayName("Invariant 1.2: two grants overlapping with no release between are caught")
	void overlapIsCaught() {
		taken(Call.TRY_TAKE, A, 0, 1, 0);
		taken(Call.TRY_TAKE, B, 950, 951, 950);
		assertViolation("Invariant 1.2");
	}

	@Test
	@DisplayName("Operation 13: released answered to a party that never held is caught")
	void releaseByANonHolderIsCaught() {
		taken(Call.TRY_TAKE, A, 0, 1, 0);
		answer(Call.RELEASE, B, 100, 101, new Released());
		assertViolation("Operation 13");
	}

	@Test
	@DisplayName("Operation 11: not-held answered to the holder while its grant stood is caught")
	void notHeldToTheHolderIsCaught() {
		taken(Call.TRY_TAKE, A, 0, 1, 0);
		answer(Call.RELEASE, A, 100, 101, new NotHeld());
		assertViolation("Operation 11");
	}

	@Test
	@DisplayName("Operation 9: a remaining term answered to a party that did not hold is caught")
	void remainingToANonHolderIsCaught() {
		taken(Call.TRY_TAKE, A, 0, 1, 0);
		answer(Call.REMAINING, B, 100, 101, Optional.of(Duration.ofMillis(900)));
		assertViolation("Operation 9");
	}

	@Test
	@DisplayName("Operation 3: a take waiting beyond its arrival term is caught")
	void waitBeyondTheBoundIsCaught() {
		taken(Call.TRY_TAKE, A, 0, 1, 0);
		answer(Call.TAKE, B, 100, 1500, new Unavailable());
		assertViolation("Operation 3");
	}

	@Test
	@DisplayName("Non-goal 3: a later waiter admitted before one proven queued earlier is caught")
	void outOfOrderAdmissionIsCaught() {
		taken(Call.TRY_TAKE, A, 0, 1, 0);
		taken(Call.TAKE, B, 100, 1002, 1001);
		// B is refused a second take while it waits: its take had reached the host.
		this.history
			.add(new Event(Call.TRY_TAKE, KEY, B, TERM, at(150), at(151), null, new ReentrantTakeException(KEY, B)));
		taken(Call.TAKE, C, 300, 1001, 1000);
		answer(Call.RELEASE, C, 1000, 1000, new Released());
		assertViolation("Non-goal 3");
	}

	@Test
	@DisplayName("Operation 7 and Non-goal 1: held on a free key, and a reentrant refusal with no cause, are caught")
	void causelessRefusalsAreCaught() {
		answer(Call.TRY_TAKE, A, 0, 1, new Held());
		this.history
			.add(new Event(Call.TRY_TAKE, KEY, B, TERM, at(10), at(11), null, new ReentrantTakeException(KEY, B)));
		assertThat(this.checker.violations(this.history)).anyMatch((v) -> v.startsWith("Operation 7"))
			.anyMatch((v) -> v.startsWith("Non-goal 1"));
	}

	@Test
	@DisplayName("Operation 8, 9, 13: a take failed with LeaseHostException may have granted; the holder's later answers are allowed")
	void failedTakeMayHaveGranted() {
		failed(Call.TRY_TAKE, A, 0, 10);
		answer(Call.REMAINING, A, 100, 101, Optional.of(Duration.ofMillis(900)));
		answer(Call.TRY_TAKE, B, 200, 201, new Held());
		answer(Call.RELEASE, A, 300, 301, new Released());
		taken(Call.TRY_TAKE, B, 400, 401, 400);
		this.checker.check(this.history);
	}

	@Test
	@DisplayName("Invariant 1.2: a failed take excuses nothing once its possible grant has passed, and never hides an overlap")
	void failedTakeDoesNotHideAnOverlap() {
		failed(Call.TRY_TAKE, C, 0, 10);
		taken(Call.TRY_TAKE, A, 2000, 2001, 2000);
		taken(Call.TRY_TAKE, B, 2500, 2501, 2500);
		answer(Call.REMAINING, C, 2600, 2601, Optional.of(Duration.ofMillis(100)));
		assertThat(this.checker.violations(this.history)).anyMatch((v) -> v.startsWith("Invariant 1.2"))
			.anyMatch((v) -> v.startsWith("Operation 9"));
	}

	@Test
	@DisplayName("Invariant 1.2, Operation 11: a release failed with LeaseHostException may have ended the grant")
	void failedReleaseMayHaveEnded() {
		taken(Call.TRY_TAKE, A, 0, 1, 0);
		failed(Call.RELEASE, A, 100, 200);
		answer(Call.RELEASE, A, 300, 301, new NotHeld());
		taken(Call.TRY_TAKE, B, 400, 401, 400);
		this.checker.check(this.history);
	}

	@Test
	@DisplayName("Operation 11: a failed release does not excuse not-held answered to the holder before it")
	void failedReleaseDoesNotExcuseEarlierAnswers() {
		taken(Call.TRY_TAKE, A, 0, 1, 0);
		answer(Call.RELEASE, A, 100, 101, new NotHeld());
		failed(Call.RELEASE, A, 300, 400);
		assertViolation("Operation 11");
	}

	@Test
	@DisplayName("Host: interruption: a take that threw InterruptedException may have held the key during its call, and nothing after")
	void interruptedTakeMayHaveHeldDuringItsCallOnly() {
		taken(Call.TRY_TAKE, A, 0, 1, 0);
		interrupted(B, 100, 300);
		answer(Call.RELEASE, A, 200, 201, new Released());
		answer(Call.TRY_TAKE, C, 250, 251, new Held());
		taken(Call.TRY_TAKE, C, 400, 401, 400);
		answer(Call.REMAINING, B, 500, 501, Optional.empty());
		answer(Call.RELEASE, B, 600, 601, new NotHeld());
		this.checker.interruptsKnown().check(this.history);
		this.checker.check(this.history);
	}

	@Test
	@DisplayName("Operation 7, 9, 13: a grant standing for a take that threw InterruptedException after it returned is caught")
	void grantOutlivingAnInterruptedTakeIsCaught() {
		taken(Call.TRY_TAKE, A, 0, 1, 0);
		interrupted(B, 100, 300);
		answer(Call.RELEASE, A, 200, 201, new Released());
		answer(Call.TRY_TAKE, C, 400, 401, new Held());
		answer(Call.REMAINING, B, 500, 501, Optional.of(Duration.ofMillis(700)));
		answer(Call.RELEASE, B, 600, 601, new Released());
		assertThat(this.checker.interruptsKnown().violations(this.history)).anyMatch((v) -> v.startsWith("Operation 7"))
			.anyMatch((v) -> v.startsWith("Operation 9"))
			.anyMatch((v) -> v.startsWith("Operation 13"));
	}

	@Test
	@DisplayName("Host: interruption: a LeaseHostException caused by an interrupt is an unknown outcome by default and a violation when interrupts are known")
	void interruptReportedAsHostFailureIsCaughtWhenInterruptsAreKnown() {
		taken(Call.TRY_TAKE, A, 0, 1, 0);
		this.history.add(new Event(Call.TAKE, KEY, B, TERM, at(100), at(300), null, new LeaseHostException(
				"Redis failed to answer take", new IllegalStateException("interrupted", new InterruptedException()))));
		answer(Call.RELEASE, A, 200, 201, new Released());
		answer(Call.TRY_TAKE, C, 400, 401, new Held());
		this.checker.check(this.history);
		assertThat(this.checker.interruptsKnown().violations(this.history))
			.anyMatch((v) -> v.startsWith("Host: interruption"))
			.anyMatch((v) -> v.startsWith("Operation 7"));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> this.checker.interruptsKnown().check(this.history))
			.withMessageContaining("Host: interruption");
	}

	@Test
	@DisplayName("Host: interruption: a take failed with LeaseHostException caused by its interrupt, its withdrawal going on, gave up: no violation when interrupts are known, but a grant a later release hands it is caught")
	void takeWhoseWithdrawalGoesOnGaveUpWhenInterruptsAreKnown() {
		heldLong(A);
		this.history.add(new Event(Call.TAKE, KEY, B, TERM, at(100), at(300), null, new LeaseHostException(
				"Interrupted, and the waiter could not be withdrawn yet", new InterruptedException())));
		queuedOn(B, 150);
		queuedOn(C, 250);
		answer(Call.RELEASE, A, 500, 501, new Released());
		takenAfterWaiting(C, 200, 500);
		this.checker.interruptsKnown().check(this.history);
		this.history.remove(this.history.size() - 1);
		takenAfterWaiting(C, 200, 1500);
		assertThat(this.checker.interruptsKnown().violations(this.history))
			.noneMatch((v) -> v.startsWith("Host: interruption: an interrupted call failed with LeaseHostException"))
			.anyMatch((v) -> v.startsWith("Host: interruption: a release handed the key to a take that had given up"));
	}

	@Test
	@DisplayName("Host: interruption: a LeaseHostException with no interrupt among its causes stays an unknown outcome when interrupts are known")
	void hostFailureWithoutInterruptStaysUnknownWhenInterruptsAreKnown() {
		failed(Call.TRY_TAKE, A, 0, 10);
		answer(Call.REMAINING, A, 100, 101, Optional.of(Duration.ofMillis(900)));
		answer(Call.TRY_TAKE, B, 200, 201, new Held());
		this.checker.interruptsKnown().check(this.history);
	}

	@Test
	@DisplayName("Host: interruption: a release that hands the key to a take that threw InterruptedException before it, seen as the waiter behind kept out for that take's term, is caught")
	void releaseHandingTheKeyToATakeThatGaveUpIsCaught() {
		heldLong(A);
		interrupted(B, 100, 300);
		queuedOn(B, 150);
		queuedOn(C, 250);
		answer(Call.RELEASE, A, 500, 501, new Released());
		// C waited out the term of the grant handed to B, who had left.
		takenAfterWaiting(C, 200, 1500);
		assertThat(this.checker.violations(this.history))
			.anyMatch((v) -> v.startsWith("Host: interruption: a release handed the key to a take that had given up"));
		assertThat(this.checker.interruptsKnown().violations(this.history))
			.anyMatch((v) -> v.startsWith("Host: interruption: a release handed the key to a take that had given up"));
	}

	@Test
	@DisplayName("Host: interruption: an interrupt carried as a suppressed exception of a LeaseHostException is judged when interrupts are known, and the grant the release made to that take is caught")
	void interruptSuppressedInAHostFailureIsJudgedWhenInterruptsAreKnown() {
		heldLong(A);
		LeaseHostException failure = new LeaseHostException("PostgreSQL is unreachable (too many clients)");
		failure.addSuppressed(new InterruptedException());
		this.history.add(new Event(Call.TAKE, KEY, B, TERM, at(100), at(300), null, failure));
		queuedOn(B, 150);
		queuedOn(C, 250);
		answer(Call.RELEASE, A, 500, 501, new Released());
		takenAfterWaiting(C, 200, 1500);
		this.checker.check(this.history);
		assertThat(this.checker.interruptsKnown().violations(this.history))
			.anyMatch((v) -> v.startsWith("Host: interruption: an interrupted call failed with LeaseHostException"))
			.anyMatch((v) -> v.startsWith("Host: interruption: a release handed the key to a take that had given up"));
	}

	@Test
	@DisplayName("Host: interruption: the waiter behind a take that gave up, granted at the release, is no violation")
	void waiterBehindATakeThatGaveUpGrantedAtTheReleasePasses() {
		heldLong(A);
		interrupted(B, 100, 300);
		queuedOn(B, 150);
		queuedOn(C, 250);
		answer(Call.RELEASE, A, 500, 501, new Released());
		takenAfterWaiting(C, 200, 500);
		this.checker.check(this.history);
		this.checker.interruptsKnown().check(this.history);
	}

	// The holder's grant, far longer than the waiters' terms: a waiter kept out for one
	// of their terms still answers within its bound.
	private void heldLong(LeaseHolder holder) {
		Duration term = Duration.ofSeconds(10);
		this.history.add(new Event(Call.TRY_TAKE, KEY, holder, term, at(0), at(1),
				new Taken(new Lease(KEY, holder, at(0).plus(term))), null));
	}

	private void queuedOn(LeaseHolder holder, long seen) {
		this.history.add(new Event(Call.QUEUED, KEY, holder, null, at(seen), at(seen + 10), null, null));
	}

	private void takenAfterWaiting(LeaseHolder holder, long invoked, long grantedAt) {
		taken(Call.TAKE, holder, invoked, grantedAt + 1, grantedAt);
	}

	private void assertViolation(String rule) {
		assertThat(this.checker.violations(this.history)).anyMatch((violation) -> violation.startsWith(rule));
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> this.checker.check(this.history))
			.withMessageContaining(rule);
	}

	private void taken(Call call, LeaseHolder holder, long invoked, long returned, long grantedAt) {
		Lease lease = new Lease(KEY, holder, at(grantedAt).plus(TERM));
		answer(call, holder, invoked, returned, new Taken(lease));
	}

	private void answer(Call call, LeaseHolder holder, long invoked, long returned, Object answer) {
		Duration duration = (call == Call.TAKE || call == Call.TRY_TAKE) ? TERM : null;
		this.history.add(new Event(call, KEY, holder, duration, at(invoked), at(returned), answer, null));
	}

	private void failed(Call call, LeaseHolder holder, long invoked, long returned) {
		Duration duration = (call == Call.TAKE || call == Call.TRY_TAKE) ? TERM : null;
		this.history.add(new Event(call, KEY, holder, duration, at(invoked), at(returned), null,
				new LeaseHostException("connection cut")));
	}

	private void interrupted(LeaseHolder holder, long invoked, long returned) {
		this.history
			.add(new Event(Call.TAKE, KEY, holder, TERM, at(invoked), at(returned), null, new InterruptedException()));
	}

	private static Instant at(long millis) {
		return T0.plusMillis(millis);
	}

}
