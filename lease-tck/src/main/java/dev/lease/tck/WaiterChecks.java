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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.Unavailable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Waiters: each bound fixed at arrival, never extended, admitted in arrival order, and
 * granted the key the moment it frees, by a release or at an instant (Invariant 4,
 * Operation 2 to 5, Non-goal 3 and 4).
 *
 * @author Lease contributors
 */
abstract class WaiterChecks extends KitGroup {

	private static final Duration FIRST_TERM = Duration.ofMillis(1500);

	// Terms far longer than the tolerance, so that a waiter woken at a grant's instant
	// rather than at its early release is late beyond doubt.
	private static final Duration CHAIN_HOLDER_TERM = Duration.ofSeconds(8);

	private static final Duration CHAIN_TERM = Duration.ofSeconds(6);

	// How long each waiter of a chain holds the key before it releases it.
	private static final Duration HELD_FOR = Duration.ofMillis(150);

	@Test
	@DisplayName("Check 4.2 (Invariant 4.2, Operation 4, 5): a second waiter fails on its own arrival term, not the first waiter's whole term")
	void secondWaiterFailsOnItsOwnArrivalTerm() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		LeaseHolder first = newHolder("first");
		taken(key, holder, FIRST_TERM);
		TimedTake firstTake = takeInBackground(key, first, LONG);
		arrived(key, first);
		LeaseHolder second = newHolder("second");
		long before = System.nanoTime();
		Duration arrival = host().remaining(key, holder).orElseThrow();
		TimedTake secondTake = takeInBackground(key, second, LONG, before);
		arrived(key, second);
		host().release(key, holder);
		assertThat(firstTake.answer(tolerance())).isInstanceOf(Taken.class);
		assertThat(secondTake.answer(arrival.plus(tolerance()))).isInstanceOf(Unavailable.class);
		assertThat(secondTake.took()).as("not earlier than the arrival term (Operation 4)")
			.isGreaterThanOrEqualTo(arrival.minus(CLOCK_GRAIN))
			.as("within the arrival term (Check 4.2)")
			.isLessThanOrEqualTo(arrival.plus(tolerance()));
		host().release(key, first);
	}

	@Test
	@DisplayName("Non-goal 4: a waiter whose bound elapsed is not carried forward")
	void waiterPastItsBoundIsNotCarriedForward() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		LeaseHolder first = newHolder("first");
		LeaseHolder second = newHolder("second");
		taken(key, holder, FIRST_TERM);
		TimedTake firstTake = takeInBackground(key, first, LONG);
		arrived(key, first);
		TimedTake secondTake = takeInBackground(key, second, LONG);
		arrived(key, second);
		host().release(key, holder);
		assertThat(firstTake.answer(tolerance())).isInstanceOf(Taken.class);
		assertThat(secondTake.answer(FIRST_TERM.plus(tolerance()))).isInstanceOf(Unavailable.class);
		host().release(key, first);
		assertThat(host().remaining(key, second)).isEmpty();
		assertThat(host().tryTake(key, newHolder("next"), LONG)).isInstanceOf(Taken.class);
	}

	@Test
	@DisplayName("Check 1.1, 1.2 (Invariant 1.2): two concurrent takes yield exactly one expiresAt; the other answers unavailable")
	void twoConcurrentTakesYieldOneGrant() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		taken(key, holder, FIRST_TERM);
		LeaseHolder oneHolder = newHolder("one");
		LeaseHolder otherHolder = newHolder("other");
		TimedTake one = takeInBackground(key, oneHolder, LONG);
		TimedTake other = takeInBackground(key, otherHolder, LONG);
		arrived(key, oneHolder);
		arrived(key, otherHolder);
		host().release(key, holder);
		List<TakeResult> answers = List.of(one.answer(FIRST_TERM.plus(tolerance())),
				other.answer(FIRST_TERM.plus(tolerance())));
		assertThat(answers).filteredOn(Taken.class::isInstance).hasSize(1);
		assertThat(answers).filteredOn(Unavailable.class::isInstance).hasSize(1);
	}

	@Test
	@DisplayName("Non-goal 3: five staggered waiters are admitted in arrival order")
	void waitersAreAdmittedInArrivalOrder() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		taken(key, holder, LONG);
		ConcurrentLinkedQueue<Integer> admitted = new ConcurrentLinkedQueue<>();
		CountDownLatch done = new CountDownLatch(5);
		List<LeaseHolder> waiters = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			int index = i;
			LeaseHolder waiter = newHolder("waiter" + i);
			waiters.add(waiter);
			runInBackground(() -> {
				try {
					if (host().take(key, waiter, LONG) instanceof Taken) {
						admitted.add(index);
						host().release(key, waiter);
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				finally {
					done.countDown();
				}
			});
			arrived(key, waiter);
		}
		host().release(key, holder);
		assertThat(done.await(tolerance().multipliedBy(3).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(admitted).containsExactly(0, 1, 2, 3, 4);
	}

	@Test
	@DisplayName("Non-goal 1: a holder already waiting for a key is refused a second take, and keeps its place")
	void waitingHolderIsRefusedASecondTake() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		LeaseHolder waiter = newHolder("waiter");
		taken(key, holder, LONG);
		TimedTake take = takeInBackground(key, waiter, LONG);
		elapse(ARRIVAL);
		assertThatExceptionOfType(ReentrantTakeException.class).isThrownBy(() -> host().tryTake(key, waiter, LONG));
		host().release(key, holder);
		assertThat(take.answer(tolerance())).isInstanceOf(Taken.class);
	}

	@Test
	@DisplayName("Non-goal 3, Operation 2: when the holder's term passes the key goes to the waiter, not to a later try take")
	void expiryHandsTheKeyToTheWaiter() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder waiter = newHolder("waiter");
		taken(key, newHolder("holder"), FIRST_TERM);
		TimedTake take = takeInBackground(key, waiter, LONG);
		arrived(key, waiter);
		elapse(FIRST_TERM.plus(ARRIVAL));
		assertThat(host().tryTake(key, newHolder("late"), LONG)).isInstanceOf(Held.class);
		assertThat(take.answer(tolerance())).isInstanceOf(Taken.class);
	}

	@Test
	@DisplayName("Operation 2: a chain of waiters, each releasing early, is granted at each release, never with an instant already passed")
	void chainOfEarlyReleasesIsGrantedAtEachRelease() throws Exception {
		assertChainGrantedAsTheKeyFrees(new Link(CHAIN_TERM, true), new Link(CHAIN_TERM, true),
				new Link(CHAIN_TERM, true));
	}

	@Test
	@DisplayName("Operation 2: a chain of waiters whose first lets a short term pass is granted at that instant and then at each release, never with an instant already passed")
	void chainThroughAPassedTermIsGrantedAtItsInstant() throws Exception {
		assertChainGrantedAsTheKeyFrees(new Link(SHORT, false), new Link(CHAIN_TERM, true), new Link(CHAIN_TERM, true));
	}

	// A holder with a long term releases early to a queue of waiters; each waiter must be
	// granted when the one before it frees the key, long before the holder's instant.
	private void assertChainGrantedAsTheKeyFrees(Link... links) throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		taken(key, holder, CHAIN_HOLDER_TERM);
		List<CompletableFuture<ChainAnswer>> answers = new ArrayList<>();
		for (int i = 0; i < links.length; i++) {
			LeaseHolder waiter = newHolder("waiter" + (i + 1));
			answers.add(takeInChain(key, waiter, links[i]));
			arrived(key, waiter);
		}
		host().release(key, holder);
		Instant freedAt = Instant.now();
		SoftAssertions softly = new SoftAssertions();
		for (int i = 0; i < answers.size(); i++) {
			String waiter = "waiter " + (i + 1);
			ChainAnswer answer = answers.get(i)
				.get(CHAIN_HOLDER_TERM.plus(tolerance()).toMillis(), TimeUnit.MILLISECONDS);
			if (!(answer.result() instanceof Taken taken)) {
				softly.fail("%s answered %s", waiter, answer.result());
				break;
			}
			softly.assertThat(Duration.between(freedAt, answer.answeredAt()))
				.as("%s's answer after the key freed at %s (Operation 2)", waiter, freedAt)
				.isLessThanOrEqualTo(tolerance().plus(kit().clockSkew()));
			softly.assertThat(taken.lease().expiresAt())
				.as("%s's instant, against the JVM's clock at its answer %s", waiter, answer.answeredAt())
				.isAfter(answer.answeredAt().minus(kit().clockSkew()));
			freedAt = answer.freedAt();
		}
		softly.assertAll();
	}

	// A take on its own thread whose holder, once granted, either keeps the key a moment
	// and releases it, or lets its term pass.
	private CompletableFuture<ChainAnswer> takeInChain(LeaseKey key, LeaseHolder waiter, Link link) {
		CompletableFuture<ChainAnswer> answer = new CompletableFuture<>();
		runInBackground(() -> {
			try {
				TakeResult result = host().take(key, waiter, link.term());
				Instant answeredAt = Instant.now();
				Instant freedAt = answeredAt;
				if (result instanceof Taken taken) {
					freedAt = taken.lease().expiresAt();
					if (link.releasesEarly()) {
						elapse(HELD_FOR);
						host().release(key, waiter);
						freedAt = Instant.now();
					}
				}
				answer.complete(new ChainAnswer(result, answeredAt, freedAt));
			}
			catch (Throwable ex) {
				answer.completeExceptionally(ex);
			}
		});
		return answer;
	}

	/**
	 * One waiter of a chain.
	 *
	 * @param term the term it takes the key for
	 * @param releasesEarly whether it releases the key a moment after it is granted, or
	 * lets the term pass
	 */
	record Link(Duration term, boolean releasesEarly) {

	}

	/**
	 * What one waiter of a chain saw, on the JVM's clock.
	 *
	 * @param result the take's answer
	 * @param answeredAt when the answer came
	 * @param freedAt when its release returned, or the instant of a grant it let pass
	 */
	record ChainAnswer(TakeResult result, Instant answeredAt, Instant freedAt) {

	}

}
