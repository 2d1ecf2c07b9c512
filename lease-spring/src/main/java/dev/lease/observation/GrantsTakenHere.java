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

package dev.lease.observation;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;

/**
 * The grants taken through one observed host and not yet released, blocking or not, and
 * the meters kept from them: {@code lease.active}, {@code lease.overrun} and
 * {@code lease.held}, tagged {@code lease.host}.
 *
 * @author Lease contributors
 */
final class GrantsTakenHere {

	// How long a grant whose instant passed is remembered, so that its late release still
	// counts as an overrun; then it is forgotten, and lease.active cannot grow with
	// grants that are never released.
	static final Duration OVERRUN_MEMORY = Duration.ofHours(1);

	private static final int PRUNE_AT_LEAST = 1024;

	// The JVM's clocks only bound and time meters here; they decide nothing about a
	// lease.
	private final InstantSource clock;

	private final Clock meterClock;

	private final Map<Grant, Standing> standing = new ConcurrentHashMap<>();

	private volatile int pruneAbove = PRUNE_AT_LEAST;

	private final Counter overruns;

	private final Timer heldUntilReleased;

	private final Timer heldUntilOverrun;

	GrantsTakenHere(String hostName, MeterRegistry meters, InstantSource clock) {
		this.clock = clock;
		this.meterClock = meters.config().clock();
		String hostKey = LeaseObservationDocumentation.LowCardinalityKeyNames.HOST.asString();
		this.overruns = Counter.builder("lease.overrun")
			.description("Releases answered not held for grants taken here: the work outran its term")
			.tag(hostKey, hostName)
			.register(meters);
		Gauge.builder("lease.active", this, GrantsTakenHere::active)
			.description("Grants taken through this host, not released, and not past their instant")
			.tag(hostKey, hostName)
			.register(meters);
		this.heldUntilReleased = held(hostKey, hostName, "released", meters);
		this.heldUntilOverrun = held(hostKey, hostName, "not-held", meters);
	}

	// Both outcomes are registered at once, so that a dashboard finds every series
	// before the first release. The histogram gives a dashboard its percentiles.
	private static Timer held(String hostKey, String hostName, String outcome, MeterRegistry meters) {
		return Timer.builder("lease.held")
			.description("From a grant taken through this host to its release; not-held is an overrun")
			.tag(hostKey, hostName)
			.tag(LeaseObservationDocumentation.LowCardinalityKeyNames.OUTCOME.asString(), outcome)
			.publishPercentileHistogram()
			.register(meters);
	}

	/**
	 * Keep a grant the host just made; its hold time starts now.
	 * @param key the key granted
	 * @param holder its holder
	 * @param expiresAt the grant's instant
	 * @param duration the term asked for
	 */
	void taken(LeaseKey key, LeaseHolder holder, Instant expiresAt, Duration duration) {
		// a holder takes a key again only once its grant passed: a new grant (Non-goal 1)
		this.standing.put(new Grant(key, holder), new Standing(expiresAt, duration, this.meterClock.monotonicTime()));
		if (this.standing.size() > this.pruneAbove) {
			prune();
			this.pruneAbove = Math.max(PRUNE_AT_LEAST, 2 * this.standing.size());
		}
	}

	/**
	 * Time a grant kept here to its release, and count an overrun. A release of a grant
	 * not taken here, or forgotten, records nothing.
	 * @param key the key released
	 * @param holder its holder
	 * @param overrun whether the release was answered not held
	 */
	void released(LeaseKey key, LeaseHolder holder, boolean overrun) {
		Standing released = this.standing.remove(new Grant(key, holder));
		if (released == null) {
			return;
		}
		long heldFor = this.meterClock.monotonicTime() - released.takenAt();
		(overrun ? this.heldUntilOverrun : this.heldUntilReleased).record(heldFor, TimeUnit.NANOSECONDS);
		if (overrun) {
			this.overruns.increment();
		}
	}

	/**
	 * Return when a grant kept here began: its instant less the duration asked for.
	 * @param grant a grant, as a listing or an exact read answered it
	 * @return the instant the grant began, or empty when it is not kept here
	 */
	Optional<Instant> grantedAt(Lease grant) {
		Standing kept = this.standing.get(new Grant(grant.key(), grant.holder()));
		// the same holder may have taken the key again since: only the same instant is
		// the same grant
		if (kept == null || !kept.expiresAt().equals(grant.expiresAt())) {
			return Optional.empty();
		}
		return Optional.of(kept.expiresAt().minus(kept.duration()));
	}

	private double active() {
		prune();
		Instant now = this.clock.instant();
		return this.standing.values().stream().map(Standing::expiresAt).filter(now::isBefore).count();
	}

	private void prune() {
		Instant forgotten = this.clock.instant().minus(OVERRUN_MEMORY);
		this.standing.values().removeIf((kept) -> kept.expiresAt().isBefore(forgotten));
	}

	private record Grant(LeaseKey key, LeaseHolder holder) {

	}

	// takenAt is the meter registry's monotonic time, as its timers read it; duration is
	// the term asked for, which the grant's instant counts from when it began.
	private record Standing(Instant expiresAt, Duration duration, long takenAt) {

	}

}
