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

package dev.lease.template;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import dev.lease.AsyncLeaseHost;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.annotation.LeaseMode;

/**
 * How a {@link LeaseTemplate} takes a key without holding the caller's thread: the same
 * steps as {@link LeaseTakes}, each answered by the host's {@link AsyncLeaseHost} view,
 * so that a waiting take holds no thread and waits in the host's own arrival order.
 * Cancelling the answer withdraws the take, and a grant that arrives after the answer was
 * cancelled is given back.
 *
 * @author Lease contributors
 */
final class AsyncLeaseTakes {

	private final AsyncLeaseHost host;

	private final LongSupplier clock;

	AsyncLeaseTakes(AsyncLeaseHost host, LongSupplier clock) {
		this.host = host;
		this.clock = clock;
	}

	CompletableFuture<LeaseOutcome<HeldLease>> take(LeaseRequest request, LeaseHolder holder, LeaseMode mode,
			@Nullable CompletableFuture<Void> standing, LeaseReleases releases) {
		CompletableFuture<LeaseOutcome<HeldLease>> answer = new CompletableFuture<>();
		AtomicReference<@Nullable CompletableFuture<?>> asking = new AtomicReference<>();
		answer.whenComplete((outcome, failure) -> {
			CompletableFuture<?> asked = asking.get();
			if (answer.isCancelled() && asked != null) {
				asked.cancel(false);
			}
		});
		if (standing == null) {
			ask(request, holder, mode, answer, asking, releases);
		}
		else {
			// the holder's own grant, held on after its work, ends first
			standing.whenComplete((ended, failure) -> ask(request, holder, mode, answer, asking, releases));
		}
		return answer;
	}

	private void ask(LeaseRequest request, LeaseHolder holder, LeaseMode mode,
			CompletableFuture<LeaseOutcome<HeldLease>> answer, AtomicReference<@Nullable CompletableFuture<?>> asking,
			LeaseReleases releases) {
		if (answer.isDone()) {
			return;
		}
		LeaseKey key = request.key();
		Duration duration = request.duration();
		if (mode == LeaseMode.TRY_TAKE) {
			asked(asking, answer, this.host.tryTake(key, holder, duration)).whenComplete((result, failure) -> {
				if (failure != null) {
					fail(answer, key, holder, failure);
				}
				else {
					deliver(answer,
							(result instanceof Taken taken) ? LeaseTakes.held(request, taken.lease(), this.clock)
									: LeaseOutcome.notTaken(key, "it is held by another holder"),
							releases);
				}
			});
			return;
		}
		long started = this.clock.getAsLong();
		CompletableFuture<TakeResult> asked = asked(asking, answer, this.host.take(key, holder, duration));
		asked.whenComplete((result, failure) -> {
			if (failure != null) {
				fail(answer, key, holder, failure);
			}
			else if (!(result instanceof Taken taken)) {
				deliver(answer, LeaseOutcome.notTaken(key, "it stayed held for the whole arrival term"), releases);
			}
			else if (LeaseTakes.mayHavePassed(started, this.clock, duration)) {
				this.host.remaining(key, holder).whenComplete((remaining, unknown) -> {
					if (unknown != null) {
						fail(answer, key, holder, unknown);
					}
					else {
						deliver(answer,
								remaining.isEmpty()
										? LeaseOutcome.notTaken(key,
												"it was handed over after its instant " + taken.lease().expiresAt()
														+ " had passed")
										: LeaseTakes.held(request, taken.lease(), this.clock),
								releases);
					}
				});
			}
			else {
				deliver(answer, LeaseTakes.held(request, taken.lease(), this.clock), releases);
			}
		});
	}

	// A cancellation of the answer that came before the host was asked reaches the
	// question as soon as it is asked.
	private static <T> CompletableFuture<T> asked(AtomicReference<@Nullable CompletableFuture<?>> asking,
			CompletableFuture<?> answer, CompletableFuture<T> asked) {
		asking.set(asked);
		if (answer.isCancelled()) {
			asked.cancel(false);
		}
		return asked;
	}

	private static void deliver(CompletableFuture<LeaseOutcome<HeldLease>> answer, LeaseOutcome<HeldLease> outcome,
			LeaseReleases releases) {
		HeldLease held = outcome.value();
		if (!answer.complete(outcome) && held != null) {
			// the caller went away while the grant was being made: give it back
			releases.giveBack(held);
		}
	}

	// The request may have reached the host and only its answer been lost: give the grant
	// back rather than leave it standing until its instant unused.
	private void fail(CompletableFuture<LeaseOutcome<HeldLease>> answer, LeaseKey key, LeaseHolder holder,
			Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		if (cause instanceof CancellationException) {
			answer.cancel(false);
			return;
		}
		if (!(cause instanceof LeaseHostException)) {
			answer.completeExceptionally(cause);
			return;
		}
		this.host.release(key, holder).whenComplete((released, releaseFailure) -> {
			if (releaseFailure != null) {
				cause.addSuppressed(releaseFailure);
			}
			answer.completeExceptionally(cause);
		});
	}

}
