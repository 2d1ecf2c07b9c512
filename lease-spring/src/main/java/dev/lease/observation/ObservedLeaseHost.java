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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

import dev.lease.AsyncLeaseHost;
import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.QueuedTakes;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;

/**
 * A {@link LeaseHost} that observes every operation of another host once: one observation
 * per call, named and keyed as {@link LeaseObservationDocumentation} says, with key
 * values from a {@link LeaseObservationConvention}. With Spring Boot's meter handler each
 * observation makes one timer of the same name, tagged {@code lease.host},
 * {@code lease.outcome} and {@code error}. Beside the observations it keeps the meters no
 * observation's timer can give:
 * <ul>
 * <li>{@code lease.overrun}, a counter of releases answered {@link NotHeld} for grants
 * taken through this host: the work outran its term;</li>
 * <li>{@code lease.active}, a gauge of the grants taken through this host, not yet
 * released, and whose instant has not passed;</li>
 * <li>{@code lease.waiting} and {@code lease.waiting.oldest}, gauges of the takes waiting
 * now, blocking or not, and of how long the oldest has waited;</li>
 * <li>{@code lease.held}, a timer from a grant taken through this host to its release,
 * tagged {@code lease.outcome} {@code released}, or {@code not-held} for an overrun.</li>
 * </ul>
 * All are tagged {@code lease.host}. Keys and holders are never tags or key values: their
 * number is unbounded and they may be sensitive.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class ObservedLeaseHost implements LeaseHost {

	private final LeaseHost target;

	private final String hostName;

	private final ObservationRegistry observations;

	private final LeaseObservationConvention convention;

	private final GrantsTakenHere grantsTakenHere;

	private final WaitingTakes waitingTakes;

	private volatile @Nullable AsyncLeaseHost async;

	/**
	 * Create an observed host with the default convention.
	 * @param target the host to observe
	 * @param hostName the host's low-cardinality name, such as {@code memory},
	 * {@code redis} or {@code jdbc}
	 * @param meters the registry of the host's own meters, such as {@code lease.active}
	 * @param observations the registry of the observations,
	 * {@link ObservationRegistry#NOOP} for none
	 */
	public ObservedLeaseHost(LeaseHost target, String hostName, MeterRegistry meters,
			ObservationRegistry observations) {
		this(target, hostName, meters, observations, null);
	}

	/**
	 * Create an observed host.
	 * @param target the host to observe
	 * @param hostName the host's low-cardinality name, such as {@code memory},
	 * {@code redis} or {@code jdbc}
	 * @param meters the registry of the host's own meters, such as {@code lease.active}
	 * @param observations the registry of the observations,
	 * {@link ObservationRegistry#NOOP} for none
	 * @param convention the convention to use instead of
	 * {@link DefaultLeaseObservationConvention}, or {@code null}
	 */
	public ObservedLeaseHost(LeaseHost target, String hostName, MeterRegistry meters, ObservationRegistry observations,
			@Nullable LeaseObservationConvention convention) {
		this(target, hostName, meters, observations, convention, InstantSource.system());
	}

	ObservedLeaseHost(LeaseHost target, String hostName, MeterRegistry meters, ObservationRegistry observations,
			@Nullable LeaseObservationConvention convention, InstantSource clock) {
		Assert.isTrue(target != null && hostName != null && meters != null && observations != null,
				"'target', 'hostName', 'meters' and 'observations' must not be null");
		Assert.isTrue(!(target instanceof ObservedLeaseHost),
				"'target' is observed already: each call would be observed twice");
		this.target = target;
		this.hostName = hostName;
		this.observations = observations;
		this.convention = (convention != null) ? convention : DefaultLeaseObservationConvention.INSTANCE;
		this.grantsTakenHere = new GrantsTakenHere(hostName, meters, clock);
		this.waitingTakes = new WaitingTakes(hostName, meters);
	}

	/**
	 * Return the host this one observes.
	 * @return the observed host
	 */
	public LeaseHost getTarget() {
		return this.target;
	}

	/**
	 * Return the host inside the given one: the target of an {@link ObservedLeaseHost},
	 * else the host itself. Code that needs a host's concrete class asks this.
	 * @param host a host, observed or not
	 * @return the host that answers
	 */
	public static LeaseHost unwrap(LeaseHost host) {
		return (host instanceof ObservedLeaseHost observed) ? observed.getTarget() : host;
	}

	@Override
	public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		try (WaitingTakes.Waiting waiting = this.waitingTakes.begin()) {
			return onCallersThread(LeaseObservationDocumentation.TAKE, () -> this.target.take(key, holder, duration),
					(result) -> taken(result, key, holder, duration, "unavailable"));
		}
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		return onCallersThread(LeaseObservationDocumentation.TRY_TAKE, () -> this.target.tryTake(key, holder, duration),
				(result) -> taken(result, key, holder, duration, "held"));
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		return onCallersThread(LeaseObservationDocumentation.REMAINING, () -> this.target.remaining(key, holder),
				(result) -> result.isPresent() ? "held" : "not-held");
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		return onCallersThread(LeaseObservationDocumentation.RELEASE, () -> this.target.release(key, holder),
				(result) -> released(result, key, holder));
	}

	@Override
	public List<Lease> grants(int limit) {
		return onCallersThread(LeaseObservationDocumentation.GRANTS, () -> this.target.grants(limit),
				(result) -> "listed");
	}

	@Override
	public GrantsPage grants(@Nullable String cursor, int limit) {
		return onCallersThread(LeaseObservationDocumentation.GRANTS, () -> this.target.grants(cursor, limit),
				(result) -> "listed");
	}

	@Override
	public Optional<Lease> grant(LeaseKey key) {
		return onCallersThread(LeaseObservationDocumentation.GRANT, () -> this.target.grant(key),
				(result) -> result.isPresent() ? "held" : "free");
	}

	// Passed through, not observed: a read for operators, and an observation of it would
	// be named lease.waiting, the gauge's name.
	@Override
	public Optional<QueuedTakes> waiting(LeaseKey key) {
		return this.target.waiting(key);
	}

	/**
	 * The observed host's own non-blocking view, observed as this host's questions are:
	 * one observation per question, from its asking to its answer.
	 * @return the observed non-blocking view
	 */
	@Override
	public AsyncLeaseHost async() {
		AsyncLeaseHost async = this.async;
		if (async == null) {
			async = new ObservedAsyncView(AsyncLeaseHost.of(this.target));
			this.async = async;
		}
		return async;
	}

	/**
	 * Return when a standing grant began, on the host's clock: as the observed host keeps
	 * it, or, for a host that keeps no start, if it was taken through this host and not
	 * yet released, its {@code expiresAt} less the duration asked for, since a grant runs
	 * the duration asked from the instant it is made, at once or when handed to a waiter.
	 * Passed through, not observed, as {@link #waiting(LeaseKey)} is.
	 * @param grant a grant, as a listing or an exact read answered it
	 * @return the instant the grant began, or empty when it is not known
	 */
	@Override
	public Optional<Instant> grantedAt(Lease grant) {
		return this.target.grantedAt(grant).or(() -> this.grantsTakenHere.grantedAt(grant));
	}

	private String taken(Object result, LeaseKey key, LeaseHolder holder, Duration duration, String otherwise) {
		if (!(result instanceof Taken taken)) {
			return otherwise;
		}
		this.grantsTakenHere.taken(key, holder, taken.lease().expiresAt(), duration);
		return "taken";
	}

	private String released(ReleaseResult result, LeaseKey key, LeaseHolder holder) {
		boolean overrun = result instanceof NotHeld;
		this.grantsTakenHere.released(key, holder, overrun);
		return overrun ? "not-held" : "released";
	}

	// The observation is made before this returns, and what the host threw is thrown as
	// it was: an interrupted take's InterruptedException, the others' unchecked failures.
	@SuppressWarnings("unchecked")
	private <T, E extends Throwable> T onCallersThread(LeaseObservationDocumentation operation, Callable<T> call,
			Function<T, String> outcome) throws E {
		try {
			return observe(operation, null, null, () -> CompletableFuture.completedFuture(call.call()), outcome).join();
		}
		catch (CompletionException ex) {
			Throwable cause = ex.getCause();
			throw (E) ((cause != null) ? cause : ex);
		}
	}

	// Observes one question, blocking or not, from its asking to its answer: what it
	// threw
	// or failed with is its error. A grant made as its asker cancelled the answer is
	// given back, through the observed view.
	private <T> CompletableFuture<T> observe(LeaseObservationDocumentation operation, @Nullable LeaseKey key,
			@Nullable LeaseHolder holder, Callable<CompletableFuture<T>> question, Function<T, String> outcome) {
		LeaseObservationContext context = new LeaseObservationContext(operation, this.hostName);
		// Created by the operation's name, so that a predicate on names (Boot's
		// management.observations.enable.*) sees it: a convention's getName() cannot know
		// the operation.
		Observation observation = Observation.createNotStarted(operation.getName(), () -> context, this.observations)
			.contextualName(operation.getContextualName())
			.observationConvention(this.convention)
			.start();
		CompletableFuture<T> asked;
		try (Observation.Scope scope = observation.openScope()) {
			asked = question.call();
		}
		catch (Throwable ex) {
			failed(context, observation, ex);
			return CompletableFuture.failedFuture(ex);
		}
		CompletableFuture<T> answer = new CompletableFuture<>();
		answer.whenComplete((result, failure) -> {
			if (answer.isCancelled()) {
				asked.cancel(false);
			}
		});
		asked.whenComplete((result, failure) -> {
			if (failure != null) {
				Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
						? failure.getCause() : failure;
				failed(context, observation, cause);
				answer.completeExceptionally(cause);
				return;
			}
			context.setResult(result);
			context.setOutcome(outcome.apply(result));
			observation.stop();
			if (!answer.complete(result) && result instanceof Taken && key != null && holder != null) {
				// the asker went away as the grant was made: give it back, observed
				async().release(key, holder);
			}
		});
		return answer;
	}

	private static void failed(LeaseObservationContext context, Observation observation, Throwable failure) {
		context.setOutcome(LeaseObservationContext.ERROR);
		observation.error(failure);
		observation.stop();
	}

	/**
	 * The non-blocking view of an observed host: the observed host's own view, each
	 * question observed from its asking to its answer, with the host's meters kept as for
	 * its blocking questions. Cancelling an answer cancels the question it observes.
	 */
	private final class ObservedAsyncView implements AsyncLeaseHost {

		private final AsyncLeaseHost target;

		ObservedAsyncView(AsyncLeaseHost target) {
			this.target = target;
		}

		@Override
		public CompletableFuture<TakeResult> take(LeaseKey key, LeaseHolder holder, Duration duration) {
			WaitingTakes.Waiting waiting = ObservedLeaseHost.this.waitingTakes.begin();
			CompletableFuture<TakeResult> answer = observe(LeaseObservationDocumentation.TAKE, key, holder,
					() -> this.target.take(key, holder, duration),
					(result) -> taken(result, key, holder, duration, "unavailable"));
			// answered, failed or cancelled by the asker: it waits no more
			answer.whenComplete((result, failure) -> waiting.close());
			return answer;
		}

		@Override
		public CompletableFuture<TryTakeResult> tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
			return observe(LeaseObservationDocumentation.TRY_TAKE, key, holder,
					() -> this.target.tryTake(key, holder, duration),
					(result) -> taken(result, key, holder, duration, "held"));
		}

		@Override
		public CompletableFuture<Optional<Duration>> remaining(LeaseKey key, LeaseHolder holder) {
			return observe(LeaseObservationDocumentation.REMAINING, key, holder,
					() -> this.target.remaining(key, holder), (result) -> result.isPresent() ? "held" : "not-held");
		}

		@Override
		public CompletableFuture<ReleaseResult> release(LeaseKey key, LeaseHolder holder) {
			return observe(LeaseObservationDocumentation.RELEASE, key, holder, () -> this.target.release(key, holder),
					(result) -> released(result, key, holder));
		}

		@Override
		public CompletableFuture<GrantsPage> grants(@Nullable String cursor, int limit) {
			return observe(LeaseObservationDocumentation.GRANTS, null, null, () -> this.target.grants(cursor, limit),
					(result) -> "listed");
		}

	}

}
