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
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.lease.tck.history.Event.Call;

/**
 * Host: interruption, in one key's history: a release hands the key to the first waiter
 * still queued, at once. A waiter proven queued before the release, granted only later
 * than the release could explain, was kept out by a grant nobody in the history held;
 * when a take gave up before the release, that grant stood for it.
 *
 * @author Lease contributors
 */
final class GaveUpHandoffs {

	private final List<Event> grants;

	private final Map<Event, Instant> possibleGrants;

	private final ArrivalOrder arrivals;

	private final InterruptMode interrupts;

	private final Duration skew;

	private final Duration tolerance;

	// grants: the key's grants by instant; possibleGrants: takes of unknown outcome or
	// that gave up, with the latest instant their grant could have stood to.
	GaveUpHandoffs(List<Event> grants, Map<Event, Instant> possibleGrants, ArrivalOrder arrivals,
			InterruptMode interrupts, Duration skew, Duration tolerance) {
		this.grants = grants;
		this.possibleGrants = possibleGrants;
		this.arrivals = arrivals;
		this.interrupts = interrupts;
		this.skew = skew;
		this.tolerance = tolerance;
	}

	List<String> violations(Event release) {
		if (!release.released()) {
			return List.of();
		}
		Instant releasedBy = release.returnedAt().plus(this.skew);
		return this.grants.stream().filter((waiter) -> keptOut(release, releasedBy, waiter)).flatMap((waiter) -> {
			List<Event> gaveUp = this.possibleGrants.keySet()
				.stream()
				.filter((take) -> this.interrupts.gaveUp(take) && !take.holder().equals(waiter.holder())
						&& take.returnedAt().isBefore(release.invokedAt()))
				.toList();
			return gaveUp.isEmpty() ? Stream.<String>empty()
					: Stream.of("Host: interruption: a release handed the key to a take that had" + " given up: "
							+ release + " kept " + waiter + " out until " + waiter.grantedAt().orElseThrow()
							+ ", after " + gaveUp);
		}).toList();
	}

	// A waiter queued before the release and granted later than the release explains,
	// with nothing else that could have held the key meanwhile.
	private boolean keptOut(Event release, Instant releasedBy, Event waiter) {
		Instant grantedAt = waiter.grantedAt().orElseThrow();
		return waiter.call() == Call.TAKE && !waiter.holder().equals(release.holder())
				&& grantedAt.isAfter(releasedBy.plus(this.tolerance))
				&& this.arrivals.arrivedBy(waiter).isBefore(release.invokedAt())
				&& !heldBetween(release, waiter, grantedAt);
	}

	// Another grant, or a take that may have been granted, could have held the key from
	// the release to the waiter's grant: a grant made then, a take of unknown outcome, or
	// one that gave up after the release began (given back at its return).
	private boolean heldBetween(Event release, Event waiter, Instant grantedAt) {
		Instant from = release.invokedAt().minus(this.skew);
		boolean granted = this.grants.stream()
			.anyMatch((g) -> g != waiter && !g.grantedAt().orElseThrow().isBefore(from)
					&& g.grantedAt().orElseThrow().isBefore(grantedAt));
		return granted || this.possibleGrants.entrySet()
			.stream()
			.anyMatch((possible) -> possible.getKey().invokedAt().isBefore(grantedAt)
					&& (this.interrupts.unknown(possible.getKey()) || (possible.getKey().returnedAt().isAfter(from)
							&& !possible.getValue().plus(this.tolerance).isBefore(grantedAt))));
	}

}
