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
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.lease.Held;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.tck.history.Event.Call;

/**
 * Holds a recorded history against the lease atom's model, key by key: grants never
 * overlap on the host's instants unless the earlier was released first; every release
 * answered released ends exactly one grant of its holder; a holder whose grant provably
 * stood is never told not-held or none; no take waits beyond the terms standing when it
 * arrived; waiters are admitted in arrival order; held and reentrant refusals have a
 * cause.
 * <p>
 * Arrival is judged on evidence, never on when a call was made: a call reaches the host
 * at some moment between its start and the first answer that shows it there, and a loaded
 * machine may delay it by any amount. A waiter arrived before another only when its own
 * answer, a reentrant refusal to its holder, or a {@link Event.Call#QUEUED queued
 * observation} of it was answered before the other's call started. The history of each
 * holder is taken as complete: a refusal nothing else in it explains proves the holder's
 * take was there.
 * <p>
 * A call that failed with {@link dev.lease.LeaseHostException} has an unknown outcome: a
 * failed take may have granted (even after it returned, to a waiter the host had queued,
 * up to the waiter's bound) and a failed release may have ended its holder's grant. Such
 * a call excuses the answers it could explain (held, a remaining term, released, a
 * reentrant refusal, a longer wait, an earlier handover) and never convicts a host on its
 * own.
 * <p>
 * A take that threw {@link InterruptedException} gave up: a grant made to it at the
 * interrupt was given back before it returned (Host semantics).
 * {@link #interruptsKnown()} says which failures an interrupted call may answer
 * ({@link InterruptMode}); a release that handed the key to a take that had given up is
 * caught ({@link GaveUpHandoffs}).
 * <p>
 * Host instants and the JVM's readings are compared only across a declared {@code skew},
 * the most the host's clock may differ from this JVM's (a few milliseconds for a server
 * on this machine).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class HistoryChecker {

	private final Duration skew;

	private final Duration tolerance;

	private final Duration arrivalSlack;

	private final InterruptMode interrupts;

	/**
	 * Create a checker.
	 * @param skew the most the host's clock may differ from this JVM's
	 * @param tolerance how much later than its bound a take may answer on a loaded
	 * machine
	 * @param arrivalSlack how much earlier than another's call a take must be proven to
	 * have reached the host to count as arriving first; zero judges by the proof alone
	 */
	public HistoryChecker(Duration skew, Duration tolerance, Duration arrivalSlack) {
		this(skew, tolerance, arrivalSlack, InterruptMode.UNKNOWN);
	}

	private HistoryChecker(Duration skew, Duration tolerance, Duration arrivalSlack, InterruptMode interrupts) {
		this.skew = skew;
		this.tolerance = tolerance;
		this.arrivalSlack = arrivalSlack;
		this.interrupts = interrupts;
	}

	/**
	 * Return a checker, alike in every other respect, in which an interrupted call is not
	 * an unknown outcome: a call failed with {@link dev.lease.LeaseHostException} caused
	 * by an {@link InterruptedException} is a violation, for histories recorded while
	 * threads were interrupted and the host had no other failure.
	 * @return the checker in that mode
	 */
	public HistoryChecker interruptsKnown() {
		return new HistoryChecker(this.skew, this.tolerance, this.arrivalSlack, InterruptMode.KNOWN);
	}

	/**
	 * Check a history and fail with every violation found and the events of the keys
	 * concerned.
	 * @param history the recorded events
	 */
	public void check(List<Event> history) {
		List<String> violations = violations(history);
		if (!violations.isEmpty()) {
			StringBuilder message = new StringBuilder("The history breaks the lease atom:\n");
			violations.forEach((violation) -> message.append(" - ").append(violation).append('\n'));
			message.append("History:\n");
			history.stream()
				.sorted(Comparator.comparing(Event::invokedAt))
				.forEach((event) -> message.append("   ").append(event).append('\n'));
			throw new AssertionError(message.toString());
		}
	}

	/**
	 * Return every violation the history shows.
	 * @param history the recorded events
	 * @return the violations, empty when the history is consistent with the atom
	 */
	public List<String> violations(List<Event> history) {
		Map<LeaseKey, List<Event>> byKey = new LinkedHashMap<>();
		history.forEach((event) -> byKey.computeIfAbsent(event.key(), (key) -> new ArrayList<>()).add(event));
		List<String> violations = new ArrayList<>();
		byKey.values().forEach((events) -> violations.addAll(new KeyHistory(events).violations()));
		return violations;
	}

	/**
	 * The events of one key and the grants they made.
	 */
	private final class KeyHistory {

		private final List<Event> events;

		private final List<Event> grants;

		// Takes that failed with LeaseHostException or gave up at an interrupt, and the
		// latest instant their grant could stand until had the host made it.
		private final Map<Event, Instant> possibleGrants = new LinkedHashMap<>();

		// Releases that failed with LeaseHostException, by holder.
		private final List<Event> possibleReleases;

		private final Map<Event, Event> releaseOf = new HashMap<>();

		private final List<String> violations = new ArrayList<>();

		private final ArrivalOrder arrivals;

		private final GaveUpHandoffs handoffs;

		KeyHistory(List<Event> events) {
			this.events = events;
			this.grants = events.stream()
				.filter((event) -> event.grant().isPresent())
				.sorted(Comparator.comparing((Event event) -> event.grantedAt().orElseThrow())
					.thenComparing(Event::returnedAt))
				.toList();
			this.possibleReleases = events.stream()
				.filter((event) -> event.call() == Call.RELEASE && HistoryChecker.this.interrupts.unknown(event))
				.toList();
			events.stream()
				.filter((event) -> (event.call() == Call.TAKE || event.call() == Call.TRY_TAKE)
						&& (HistoryChecker.this.interrupts.unknown(event)
								|| HistoryChecker.this.interrupts.gaveUp(event)))
				.sorted(Comparator.comparing(Event::invokedAt))
				.forEach((take) -> this.possibleGrants.put(take, latestPossibleExpiry(take)));
			this.arrivals = new ArrivalOrder(events, HistoryChecker.this.interrupts, HistoryChecker.this.skew,
					HistoryChecker.this.arrivalSlack, this::releasedBefore);
			this.handoffs = new GaveUpHandoffs(this.grants, this.possibleGrants, this.arrivals,
					HistoryChecker.this.interrupts, HistoryChecker.this.skew, HistoryChecker.this.tolerance);
		}

		// A try take grants before it answers; a queued take may be handed the key up to
		// its bound. A take that gave up at an interrupt gave back what it was granted
		// before it returned.
		private Instant latestPossibleExpiry(Event take) {
			if (HistoryChecker.this.interrupts.gaveUp(take)) {
				return take.returnedAt().plus(HistoryChecker.this.skew);
			}
			Instant latestGrant = take.returnedAt();
			if (take.call() == Call.TAKE) {
				Instant bound = arrivalBound(take).plus(HistoryChecker.this.skew).plus(HistoryChecker.this.tolerance);
				latestGrant = bound.isAfter(latestGrant) ? bound : latestGrant;
			}
			return latestGrant.plus(take.duration()).plus(HistoryChecker.this.skew);
		}

		List<String> violations() {
			this.events.stream().filter(Event::released).forEach(this::matchRelease);
			checkNoOverlap();
			for (Event event : this.events) {
				String interrupted = HistoryChecker.this.interrupts.violation(event);
				if (interrupted != null) {
					fail(interrupted);
				}
				checkGrantInstant(event);
				checkStandingAnswers(event);
				checkBound(event);
				checkRefusals(event);
				this.handoffs.violations(event).forEach(this::fail);
			}
			checkArrivalOrder();
			return this.violations;
		}

		// Released ends exactly one grant of the asking holder, once, before its instant.
		private void matchRelease(Event release) {
			Optional<Event> grant = this.grants.stream()
				.filter((g) -> g.holder().equals(release.holder()) && g.invokedAt().isBefore(release.returnedAt()))
				.reduce((first, second) -> second);
			Optional<Event> possible = this.possibleGrants.keySet()
				.stream()
				.filter((g) -> g.holder().equals(release.holder()) && g.invokedAt().isBefore(release.returnedAt())
						&& !this.releaseOf.containsKey(g) && release.invokedAt().isBefore(this.possibleGrants.get(g)))
				.filter((g) -> grant.isEmpty() || g.invokedAt().isAfter(grant.get().invokedAt())
						|| this.releaseOf.containsKey(grant.get()))
				.reduce((first, second) -> second);
			if (possible.isPresent()) {
				// A failed take of the holder may have granted: this release ended that
				// grant.
				this.releaseOf.put(possible.get(), release);
				return;
			}
			if (grant.isEmpty()) {
				fail("Operation 13: released answered to a party that never held the key: " + release);
				return;
			}
			if (this.releaseOf.putIfAbsent(grant.get(), release) != null) {
				fail("Operation 11, 12: one grant released twice: " + release);
			}
			if (!release.invokedAt().isBefore(expiresAt(grant.get()).plus(HistoryChecker.this.skew))) {
				fail("Check 5.1: released answered after the grant's instant had passed: " + release);
			}
		}

		// Invariant 1: the next grant starts at the earlier one's instant or after its
		// release.
		private void checkNoOverlap() {
			for (int i = 1; i < this.grants.size(); i++) {
				Event earlier = this.grants.get(i - 1);
				Event later = this.grants.get(i);
				if (later.grantedAt().orElseThrow().isBefore(expiresAt(earlier))) {
					Event release = this.releaseOf.get(earlier);
					if ((release == null || !release.invokedAt().isBefore(later.returnedAt()))
							&& !mayHaveBeenReleased(earlier, later.returnedAt())) {
						fail("Invariant 1.2: two grants overlap with no release between: " + earlier + " and " + later);
					}
				}
			}
		}

		// Fence 1: a grant is made between the call and its answer, on the host's clock.
		private void checkGrantInstant(Event event) {
			event.grantedAt().ifPresent((grantedAt) -> {
				if (grantedAt.isBefore(event.invokedAt().minus(HistoryChecker.this.skew))
						|| grantedAt.isAfter(event.returnedAt().plus(HistoryChecker.this.skew))) {
					fail("Fence 1: granted at " + grantedAt + ", outside its call: " + event);
				}
			});
		}

		// Invariant 5: the holder of a standing grant is answered as the holder, nobody
		// else is.
		private void checkStandingAnswers(Event event) {
			if (event.call() == Call.RELEASE && event.notHeld() && stoodThroughout(event)) {
				fail("Operation 11: not-held answered to the holder while its grant stood: " + event);
			}
			if (event.call() == Call.REMAINING && event.answer() instanceof Optional<?> remaining) {
				if (remaining.isEmpty() && stoodThroughout(event)) {
					fail("Operation 8: none answered to the holder while its grant stood: " + event);
				}
				if (remaining.isPresent() && !mayHaveStood(event, true)) {
					fail("Operation 9: a remaining term answered to a party that did not hold: " + event);
				}
			}
		}

		// Operation 3: no take waits beyond the latest instant standing when it arrived.
		private void checkBound(Event take) {
			if (take.call() != Call.TAKE || take.answer() == null) {
				return;
			}
			Instant bound = arrivalBound(take);
			Instant latest = bound.plus(HistoryChecker.this.skew).plus(HistoryChecker.this.tolerance);
			if (take.returnedAt().isAfter(latest)) {
				fail("Operation 3, Check 4.1: a take waited beyond its arrival term (bound " + bound + "): " + take);
			}
		}

		// The latest instant standing when a take arrived, a failed take's possible grant
		// included.
		private Instant arrivalBound(Event take) {
			Instant bound = take.invokedAt();
			for (Event grant : this.grants) {
				if (!grant.holder().equals(take.holder()) && grant.invokedAt().isBefore(take.invokedAt())
						&& !releasedBefore(grant, take.invokedAt()) && expiresAt(grant).isAfter(bound)) {
					bound = expiresAt(grant);
				}
			}
			for (Map.Entry<Event, Instant> possible : this.possibleGrants.entrySet()) {
				Event grant = possible.getKey();
				if (!grant.holder().equals(take.holder()) && grant.invokedAt().isBefore(take.invokedAt())
						&& possible.getValue().isAfter(bound)) {
					bound = possible.getValue();
				}
			}
			return bound;
		}

		// Held and reentrant refusals need a standing grant or a standing waiter.
		private void checkRefusals(Event event) {
			if (event.answer() instanceof Held && !mayHaveStood(event, false)) {
				fail("Operation 7: held answered while no other holder held the key: " + event);
			}
			if (event.failure() instanceof ReentrantTakeException && !heldOrAwaitedBySame(event)) {
				fail("Non-goal 1: refused as reentrant though the holder neither held nor waited: " + event);
			}
		}

		// Non-goal 3: a waiter proven to have reached the host before another call
		// started is granted before it.
		private void checkArrivalOrder() {
			this.arrivals.violations(this.grants).forEach(this::fail);
		}

		// A grant of the asker provably stood from before the call to after its answer.
		private boolean stoodThroughout(Event event) {
			return this.grants.stream()
				.anyMatch((g) -> g.holder().equals(event.holder()) && g.returnedAt().isBefore(event.invokedAt())
						&& event.returnedAt().isBefore(expiresAt(g).minus(HistoryChecker.this.skew))
						&& !releasedBefore(g, event.returnedAt()) && !mayHaveBeenReleased(g, event.returnedAt()));
		}

		// A grant of the asker (asker false: of another holder), or a failed take's
		// possible grant, may have stood at some moment of the call.
		private boolean mayHaveStood(Event event, boolean asker) {
			boolean granted = this.grants.stream()
				.anyMatch(
						(g) -> g.holder().equals(event.holder()) == asker && g.invokedAt().isBefore(event.returnedAt())
								&& event.invokedAt().isBefore(expiresAt(g).plus(HistoryChecker.this.skew))
								&& !releasedBefore(g, event.invokedAt()));
			return granted || this.possibleGrants.entrySet()
				.stream()
				.anyMatch((possible) -> possible.getKey().holder().equals(event.holder()) == asker
						&& possible.getKey().invokedAt().isBefore(event.returnedAt())
						&& event.invokedAt().isBefore(possible.getValue())
						&& !releasedBefore(possible.getKey(), event.invokedAt()));
		}

		// A release of the grant's holder that failed may have ended it before the
		// instant.
		private boolean mayHaveBeenReleased(Event grant, Instant instant) {
			return this.possibleReleases.stream()
				.anyMatch((r) -> r.holder().equals(grant.holder()) && r.invokedAt().isBefore(instant)
						&& r.returnedAt().isAfter(grant.invokedAt()));
		}

		private boolean heldOrAwaitedBySame(Event event) {
			boolean awaiting = this.events.stream()
				.anyMatch((e) -> e != event && e.call() == Call.TAKE && e.holder().equals(event.holder())
						&& e.invokedAt().isBefore(event.returnedAt()) && e.returnedAt().isAfter(event.invokedAt()));
			return awaiting || mayHaveStood(event, true);
		}

		private boolean releasedBefore(Event grant, Instant instant) {
			Event release = this.releaseOf.get(grant);
			return release != null && release.returnedAt().isBefore(instant);
		}

		private Instant expiresAt(Event grant) {
			return grant.grant().orElseThrow().expiresAt();
		}

		private void fail(String violation) {
			this.violations.add(violation);
		}

	}

}
