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

package dev.lease.tck.faults;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.Unavailable;
import dev.lease.tck.LeaseHostProbes;
import dev.lease.tck.history.Event;
import dev.lease.tck.history.Event.Call;
import dev.lease.tck.history.HistoryAssertions;
import dev.lease.tck.history.RecordingLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Waiters queued in this JVM behind a holder in a child JVM that is killed with
 * {@code kill -9} (Check 3.1, 3.2): the first to arrive gets the key at the killed
 * holder's instant and not before; the others, whose bound is that same instant
 * (Operation 3, Invariant 4.2), are told unavailable at it and not before. The waiters'
 * history, with the child's grant added as an event timed from its launch to its answer,
 * is held against the atom, and nothing is left behind.
 *
 * @author Lease contributors
 */
public final class KilledHolderWaiters {

	// Each waiter stands in the host's queue before the next is asked, and the asks are
	// apart by more than the checker's skew, so that both agree on the arrival order.
	private static final Duration STAGGER = Duration.ofMillis(300);

	private static final Duration WAITER_TERM = Duration.ofSeconds(3);

	private KilledHolderWaiters() {
	}

	/**
	 * Return the event of a grant a child process obtained and printed.
	 * @param child the child's grant, as it printed it
	 * @param term the term the child asked for
	 * @param launched the history's reading just before the child was started
	 * @param answered the history's reading just after its answer was read
	 * @return the event
	 */
	public static Event childGrant(Lease child, Duration term, Instant launched, Instant answered) {
		return new Event(Call.TRY_TAKE, child.key(), child.holder(), term, launched, answered, new Taken(child), null);
	}

	/**
	 * Queue the waiters behind the child's grant, kill the child, and check what they are
	 * answered, the history and what is left.
	 * @param host the host the waiters call, recording their history
	 * @param childGrant the child's grant, from {@link #childGrant}
	 * @param waiters how many waiters, 2 or 3
	 * @param kill kills the child with {@code kill -9}
	 * @param leftovers what is left on the server for the key (Redis keys, rows)
	 * @throws Exception if the waiters could not be run
	 */
	public static void assertHandedOnInArrivalOrder(RecordingLeaseHost host, Event childGrant, int waiters,
			Callable<?> kill, Callable<? extends Collection<?>> leftovers) throws Exception {
		Lease child = childGrant.grant().orElseThrow();
		LeaseKey key = child.key();
		host.add(childGrant);
		ExecutorService threads = Executors.newFixedThreadPool(waiters);
		try {
			List<LeaseHolder> holders = new ArrayList<>();
			List<Future<TakeResult>> takes = new ArrayList<>();
			for (int i = 0; i < waiters; i++) {
				LeaseHolder holder = LeaseHolder.of("waiter-" + i + "-" + UUID.randomUUID());
				holders.add(holder);
				takes.add(threads.submit(() -> host.take(key, holder, WAITER_TERM)));
				LeaseHostProbes.awaitWaiting(host, key, i + 1, WAITER_TERM);
				Thread.sleep(STAGGER.toMillis());
			}
			assertThat(host.now()).as("the waiters queued before the killed holder's instant")
				.isBefore(child.expiresAt().minus(STAGGER));
			kill.call();
			long wait = Duration.between(host.now(), child.expiresAt()).plus(HistoryAssertions.TOLERANCE).toMillis();
			TakeResult first = takes.get(0).get(Math.max(wait, 0), TimeUnit.MILLISECONDS);
			assertThat(first).as("the first waiter to arrive").isInstanceOf(Taken.class);
			Instant grantedAt = ((Taken) first).expiresAt().minus(WAITER_TERM);
			assertThat(grantedAt).as("Check 3.2: not granted before the killed holder's instant")
				.isAfterOrEqualTo(child.expiresAt());
			assertThat(grantedAt).as("Check 2.1, 3.1: granted at the killed holder's instant")
				.isBefore(child.expiresAt().plus(HistoryAssertions.TOLERANCE));
			for (int i = 1; i < waiters; i++) {
				assertThat(takes.get(i).get(HistoryAssertions.TOLERANCE.toMillis(), TimeUnit.MILLISECONDS))
					.as("Non-goal 3, Invariant 4.2: waiter %d, bound by the same instant, after the first", i)
					.isInstanceOf(Unavailable.class);
			}
			Instant answeredFirst = host.history()
				.stream()
				.filter((event) -> event.call() == Call.TAKE && event.answer() instanceof Unavailable)
				.map(Event::returnedAt)
				.min(Instant::compareTo)
				.orElseThrow();
			assertThat(answeredFirst).as("Operation 1, 3: no waiter told unavailable before its bound")
				.isAfterOrEqualTo(child.expiresAt().minus(HistoryAssertions.SKEW));
			assertThat(host.release(key, holders.get(0))).isInstanceOf(Released.class);
			HistoryAssertions.assertAllowedAndNothingLeft(host, HistoryAssertions.TOLERANCE, leftovers);
		}
		finally {
			threads.shutdownNow();
		}
	}

}
