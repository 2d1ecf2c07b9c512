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
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;

/**
 * A {@link LeaseHost} that meters every take and release of another host, and observes
 * them so that traces show the wait. Meters:
 * <ul>
 * <li>{@code lease.take}, a timer tagged {@code host}, {@code mode} ({@code take},
 * {@code try_take}) and {@code outcome} ({@code taken}, {@code held},
 * {@code unavailable}, {@code error});</li>
 * <li>{@code lease.release}, a counter tagged {@code host} and {@code outcome}
 * ({@code released}, {@code not_held}, {@code error});</li>
 * <li>{@code lease.overrun}, a counter of releases answered {@link NotHeld} for grants
 * taken through this host: the work outran its term;</li>
 * <li>{@code lease.active}, a gauge of the grants taken through this host and not yet
 * released.</li>
 * </ul>
 * Keys and holders are never tags: their number is unbounded and they may be sensitive.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class ObservedLeaseHost implements LeaseHost {

	/** Name of the observation around a take or try take. */
	public static final String TAKE_OBSERVATION = "lease.host.take";

	/** Name of the observation around a release. */
	public static final String RELEASE_OBSERVATION = "lease.host.release";

	private final LeaseHost host;

	private final String hostName;

	private final MeterRegistry meters;

	private final ObservationRegistry observations;

	private final Set<Pair> active = ConcurrentHashMap.newKeySet();

	private final Counter overruns;

	/**
	 * Create a metered host.
	 * @param host the host to meter
	 * @param hostName the host's low-cardinality name, such as {@code memory},
	 * {@code redis} or {@code jdbc}
	 * @param meters the registry of the meters
	 * @param observations the registry of the observations,
	 * {@link ObservationRegistry#NOOP} for none
	 */
	public ObservedLeaseHost(LeaseHost host, String hostName, MeterRegistry meters, ObservationRegistry observations) {
		if (host == null || hostName == null || meters == null || observations == null) {
			throw new IllegalArgumentException("'host', 'hostName', 'meters' and 'observations' must not be null");
		}
		this.host = host;
		this.hostName = hostName;
		this.meters = meters;
		this.observations = observations;
		this.overruns = Counter.builder("lease.overrun")
			.description("Releases answered not held for grants taken here: the work outran its term")
			.tag("host", hostName)
			.register(meters);
		Gauge.builder("lease.active", this.active, Set::size)
			.description("Grants taken through this host and not yet released")
			.tag("host", hostName)
			.register(meters);
	}

	/**
	 * Return the host this one meters.
	 * @return the metered host
	 */
	public LeaseHost getHost() {
		return this.host;
	}

	@Override
	public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		Timer.Sample sample = Timer.start(this.meters);
		Observation observation = observation(TAKE_OBSERVATION, "take").start();
		String outcome = "error";
		try (Observation.Scope scope = observation.openScope()) {
			TakeResult result = this.host.take(key, holder, duration);
			outcome = taken(result instanceof Taken, key, holder, "unavailable");
			return result;
		}
		catch (InterruptedException | RuntimeException ex) {
			observation.error(ex);
			throw ex;
		}
		finally {
			stop(sample, observation, "take", outcome);
		}
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		Timer.Sample sample = Timer.start(this.meters);
		Observation observation = observation(TAKE_OBSERVATION, "try_take").start();
		String outcome = "error";
		try (Observation.Scope scope = observation.openScope()) {
			TryTakeResult result = this.host.tryTake(key, holder, duration);
			outcome = taken(result instanceof Taken, key, holder, "held");
			return result;
		}
		catch (RuntimeException ex) {
			observation.error(ex);
			throw ex;
		}
		finally {
			stop(sample, observation, "try_take", outcome);
		}
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		return this.host.remaining(key, holder);
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		Observation observation = observation(RELEASE_OBSERVATION, null).start();
		String outcome = "error";
		try (Observation.Scope scope = observation.openScope()) {
			ReleaseResult result = this.host.release(key, holder);
			boolean ours = this.active.remove(new Pair(key, holder));
			if (result instanceof NotHeld) {
				outcome = "not_held";
				if (ours) {
					this.overruns.increment();
				}
			}
			else {
				outcome = "released";
			}
			return result;
		}
		catch (RuntimeException ex) {
			observation.error(ex);
			throw ex;
		}
		finally {
			observation.lowCardinalityKeyValue("lease.outcome", outcome);
			observation.stop();
			Counter.builder("lease.release")
				.description("Releases, by outcome")
				.tag("host", this.hostName)
				.tag("outcome", outcome)
				.register(this.meters)
				.increment();
		}
	}

	@Override
	public List<Lease> grants(int limit) {
		return this.host.grants(limit);
	}

	@Override
	public GrantsPage grants(@Nullable String cursor, int limit) {
		return this.host.grants(cursor, limit);
	}

	@Override
	public Optional<Lease> grant(LeaseKey key) {
		return this.host.grant(key);
	}

	private String taken(boolean taken, LeaseKey key, LeaseHolder holder, String otherwise) {
		if (taken) {
			this.active.add(new Pair(key, holder));
			return "taken";
		}
		return otherwise;
	}

	private Observation observation(String name, @Nullable String mode) {
		Observation observation = Observation.createNotStarted(name, this.observations)
			.contextualName(name.replace('.', ' ').toLowerCase(Locale.ROOT))
			.lowCardinalityKeyValue("lease.host", this.hostName);
		return (mode != null) ? observation.lowCardinalityKeyValue("lease.mode", mode) : observation;
	}

	private void stop(Timer.Sample sample, Observation observation, String mode, String outcome) {
		observation.lowCardinalityKeyValue("lease.outcome", outcome);
		observation.stop();
		sample.stop(Timer.builder("lease.take")
			.description("Takes and try takes, by mode and outcome")
			.tag("host", this.hostName)
			.tag("mode", mode)
			.tag("outcome", outcome)
			.register(this.meters));
	}

	private record Pair(LeaseKey key, LeaseHolder holder) {

	}

}
