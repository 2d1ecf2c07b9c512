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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Handoff: a grant the host hands to a waiter is the waiter's, kept for it until it asks,
 * even past its instant, whatever clean-up the host runs meanwhile (Operation 2, 4; Host
 * semantics). Every waiter here arrives while a holder holds the key for a long term, so
 * its bound lies far beyond the test: it must be answered taken, never unavailable.
 *
 * @author Lease contributors
 */
abstract class HandoffChecks extends KitGroup {

	private static final int ROUNDS = 5;

	private static final int CHAIN = 40;

	// Long enough for a host that cleans up now and then, at most once a second, to be
	// due again.
	private static final Duration QUIET = Duration.ofMillis(1200);

	@Test
	@DisplayName("Operation 2, Operation 4: a waiter handed the key always collects the grant it was handed, however the host cleans up: a single waiter with a tiny term, traffic on other keys at the handoff")
	void singleWaiterCollectsItsGrantWhileTheHostCleansUp() throws Exception {
		Duration tiny = tinyTerm();
		// The rounds wait out one quiet period together, each on a key of its own.
		List<LeaseKey> keys = new ArrayList<>();
		List<LeaseHolder> holders = new ArrayList<>();
		List<TimedTake> takes = new ArrayList<>();
		for (int round = 0; round < ROUNDS; round++) {
			LeaseKey key = newKey();
			LeaseHolder holder = newHolder("holder");
			taken(key, holder, LONG);
			LeaseHolder waiter = newHolder("waiter");
			takes.add(takeInBackground(key, waiter, tiny));
			arrived(key, waiter);
			keys.add(key);
			holders.add(holder);
		}
		elapse(QUIET);
		for (int round = 0; round < ROUNDS; round++) {
			host().release(keys.get(round), holders.get(round));
			// Traffic on another key right after the handoff, which is when a host that
			// collects garbage with its questions would remove the waiter's grant.
			LeaseKey other = newKey();
			LeaseHolder passerBy = newHolder("passer-by");
			host().tryTake(other, passerBy, LONG);
			host().release(other, passerBy);
			assertThat(takes.get(round).answer(tolerance()))
				.as("round %d: the waiter handed the key, its bound %s away", round, LONG)
				.isInstanceOf(Taken.class);
		}
	}

	@Test
	@DisplayName("Operation 2, Operation 4: a waiter handed the key always collects the grant it was handed, however the host cleans up: forty waiters with short terms handed the key one after another")
	void chainOfWaitersCollectsTheirGrantsWhileTheHostCleansUp() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		taken(key, holder, LONG);
		List<TimedTake> takes = new ArrayList<>();
		List<LeaseHolder> waiters = new ArrayList<>();
		for (int i = 0; i < CHAIN; i++) {
			LeaseHolder waiter = newHolder("waiter" + i);
			waiters.add(waiter);
			Duration term = (i % 2 == 0) ? tinyTerm() : Duration.ofMillis(20 + 10 * (i % 8));
			takes.add(takeInBackground(key, waiter, term));
		}
		// Every waiter stands in the queue behind the long term: its bound is that term.
		for (LeaseHolder waiter : waiters) {
			arrived(key, waiter);
		}
		AtomicBoolean chainDone = new AtomicBoolean();
		runInBackground(() -> traffic(chainDone));
		try {
			host().release(key, holder);
			for (int i = 0; i < CHAIN; i++) {
				TakeResult answer = takes.get(i).answer(LONG);
				assertThat(answer).as("waiter %d of %d, handed the key with its bound %s away", i, CHAIN, LONG)
					.isInstanceOf(Taken.class);
				// Half the grants end at release, half at their instant.
				if (ThreadLocalRandom.current().nextBoolean()) {
					host().release(key, waiters.get(i));
				}
			}
		}
		finally {
			chainDone.set(true);
		}
	}

	// Takes and releases on other keys, as an application's other work makes them.
	private void traffic(AtomicBoolean done) {
		while (!done.get()) {
			LeaseKey other = newKey();
			LeaseHolder passerBy = newHolder("passer-by");
			host().tryTake(other, passerBy, LONG);
			host().release(other, passerBy);
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	// The shortest term the host represents that is at least a microsecond: the handed
	// grant's instant, and the one after it, pass before the waiter can ask.
	private Duration tinyTerm() {
		Duration resolution = kit().resolution();
		Duration micro = Duration.ofNanos(1000);
		return (resolution.compareTo(micro) >= 0) ? resolution : micro;
	}

}
