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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

import dev.lease.LeaseHolder;
import dev.lease.ReentrantTakeException;
import dev.lease.tck.history.Event.Call;

/**
 * Judges one key's history against Non-goal 3 on what it proves. A call reaches the host
 * at some moment between its start and the first answer that shows it there, however long
 * the machine delays it on the way (a starved thread, a retried connection): when a take
 * was called is no evidence of when it arrived. So a waiter arrived before another only
 * when a proof of its arrival was answered before the other's call started, and a host is
 * convicted only when it then granted the other first. The proofs are the take's own
 * answer, a reentrant refusal to its holder (the holder waited or held, Non-goal 1) and a
 * {@link Call#QUEUED queued observation}, each only when no other call of the same holder
 * could explain it.
 *
 * @author Lease contributors
 */
final class ArrivalOrder {

	private final InterruptMode interrupts;

	private final Duration skew;

	private final Duration slack;

	private final BiPredicate<Event, Instant> releasedBefore;

	private final Map<LeaseHolder, List<Event>> byHolder = new LinkedHashMap<>();

	/**
	 * Create the judge of one key's history.
	 * @param events the key's events
	 * @param interrupts how interrupted calls are judged
	 * @param skew the most the host's clock may differ from this JVM's
	 * @param slack how much earlier than another's call a proof must be answered
	 * @param releasedBefore whether a grant was provably released before an instant
	 */
	ArrivalOrder(List<Event> events, InterruptMode interrupts, Duration skew, Duration slack,
			BiPredicate<Event, Instant> releasedBefore) {
		this.interrupts = interrupts;
		this.skew = skew;
		this.slack = slack;
		this.releasedBefore = releasedBefore;
		events.forEach(
				(event) -> this.byHolder.computeIfAbsent(event.holder(), (holder) -> new ArrayList<>()).add(event));
	}

	/**
	 * Return every pair of grants in which a take proven to have arrived before another
	 * call was granted after it: the host's grant instants are its order of service.
	 * @param grants the key's grants
	 * @return the violations
	 */
	List<String> violations(List<Event> grants) {
		List<String> violations = new ArrayList<>();
		for (Event first : grants) {
			if (first.call() != Call.TAKE) {
				continue;
			}
			Instant arrived = arrivedBy(first);
			Instant grantedAt = first.grantedAt().orElseThrow();
			for (Event second : grants) {
				if (!second.holder().equals(first.holder()) && arrived.plus(this.slack).isBefore(second.invokedAt())
						&& second.grantedAt().orElseThrow().isBefore(grantedAt)) {
					violations.add("Non-goal 3: a later waiter was admitted first: " + second + " before " + first
							+ ", which had reached the host by " + arrived);
				}
			}
		}
		return violations;
	}

	// The earliest answer that proves the take had reached the host: its own, or one
	// that showed its holder queued or holding while no other call of the holder could
	// have queued it or made it hold.
	Instant arrivedBy(Event take) {
		Instant arrived = take.returnedAt();
		for (Event proof : this.byHolder.get(take.holder())) {
			if (proof != take && provesArrival(proof) && proof.returnedAt().isBefore(arrived)
					&& take.invokedAt().isBefore(proof.returnedAt()) && onlyExplanation(take, proof)) {
				arrived = proof.returnedAt();
			}
		}
		return arrived;
	}

	private static boolean provesArrival(Event event) {
		return event.call() == Call.QUEUED || ((event.call() == Call.TAKE || event.call() == Call.TRY_TAKE)
				&& event.failure() instanceof ReentrantTakeException);
	}

	// Every other take of the holder that may have left it queued or holding when the
	// proof was answered was settled before the proof was asked.
	private boolean onlyExplanation(Event take, Event proof) {
		for (Event other : this.byHolder.get(take.holder())) {
			if (other != take && other != proof && (other.call() == Call.TAKE || other.call() == Call.TRY_TAKE)
					&& !(other.failure() instanceof ReentrantTakeException)
					&& other.invokedAt().isBefore(proof.returnedAt()) && !settledBefore(other, proof.invokedAt())) {
				return false;
			}
		}
		return true;
	}

	// A call answered before the instant that left nothing standing then: refused, given
	// up (Host semantics), or granted and provably released or passed. A host failure may
	// have left a waiter or a grant behind.
	private boolean settledBefore(Event call, Instant instant) {
		if (!call.returnedAt().isBefore(instant) || this.interrupts.unknown(call)) {
			return false;
		}
		return call.grant().isEmpty() || this.releasedBefore.test(call, instant)
				|| call.grant().orElseThrow().expiresAt().plus(this.skew).isBefore(instant);
	}

}
