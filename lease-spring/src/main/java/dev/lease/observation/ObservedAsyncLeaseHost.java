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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.lease.AsyncLeaseHost;
import dev.lease.GrantsPage;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.TryTakeResult;

/**
 * The non-blocking view of an {@link ObservedLeaseHost}: the observed host's own view,
 * each question observed from its asking to its answer, with the host's meters kept as
 * for its blocking questions. Cancelling an answer cancels the question it observes.
 *
 * @author Lease contributors
 */
final class ObservedAsyncLeaseHost implements AsyncLeaseHost {

	private final ObservedLeaseHost observed;

	private final AsyncLeaseHost target;

	ObservedAsyncLeaseHost(ObservedLeaseHost observed, AsyncLeaseHost target) {
		this.observed = observed;
		this.target = target;
	}

	@Override
	public CompletableFuture<TakeResult> take(LeaseKey key, LeaseHolder holder, Duration duration) {
		WaitingTakes.Waiting waiting = this.observed.beginWaiting();
		CompletableFuture<TakeResult> answer = this.observed.observe(LeaseObservationDocumentation.TAKE, key, holder,
				() -> this.target.take(key, holder, duration),
				(result) -> this.observed.taken(result, key, holder, duration, "unavailable"));
		// answered, failed or cancelled by the asker: it waits no more
		answer.whenComplete((result, failure) -> waiting.close());
		return answer;
	}

	@Override
	public CompletableFuture<TryTakeResult> tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		return this.observed.observe(LeaseObservationDocumentation.TRY_TAKE, key, holder,
				() -> this.target.tryTake(key, holder, duration),
				(result) -> this.observed.taken(result, key, holder, duration, "held"));
	}

	@Override
	public CompletableFuture<Optional<Duration>> remaining(LeaseKey key, LeaseHolder holder) {
		return this.observed.observe(LeaseObservationDocumentation.REMAINING, key, holder,
				() -> this.target.remaining(key, holder), (result) -> result.isPresent() ? "held" : "not-held");
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LeaseKey key, LeaseHolder holder) {
		return this.observed.observe(LeaseObservationDocumentation.RELEASE, key, holder,
				() -> this.target.release(key, holder), (result) -> this.observed.released(result, key, holder));
	}

	@Override
	public CompletableFuture<GrantsPage> grants(@Nullable String cursor, int limit) {
		return this.observed.observe(LeaseObservationDocumentation.GRANTS, null, null,
				() -> this.target.grants(cursor, limit), (result) -> "listed");
	}

}
