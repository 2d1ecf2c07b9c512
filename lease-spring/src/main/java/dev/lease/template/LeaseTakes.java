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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

import dev.lease.AsyncLeaseHost;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.LeaseUnavailableException;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.annotation.LeaseMode;

/**
 * How a {@link LeaseTemplate} takes a key: the reentrancy refusal, the holder, the take
 * or try take, a lost answer given back, and a grant handed over too late refused.
 *
 * @author Lease contributors
 */
final class LeaseTakes {

	private final LeaseHost host;

	private final String holderPrefix;

	private final AsyncLeaseTakes async;

	// Nanoseconds on the template's clock, as LeaseReleases reads it.
	private final LongSupplier clock;

	LeaseTakes(LeaseHost host, String holderPrefix, LongSupplier clock) {
		this.host = host;
		this.holderPrefix = holderPrefix;
		this.clock = clock;
		this.async = new AsyncLeaseTakes(AsyncLeaseHost.of(host), clock);
	}

	LeaseOutcome<HeldLease> take(LeaseRequest request, LeaseMode mode, LeaseReleases releases) {
		LeaseKey key = request.key();
		LeaseHolder holder = holder(request);
		if (LeaseStack.holds(key)) {
			throw new ReentrantTakeException(key, holder);
		}
		CompletableFuture<Void> standing = releases.standing(key, holder);
		if (standing != null) {
			if (mode == LeaseMode.TRY_TAKE) {
				return LeaseOutcome.notTaken(key, "this holder holds it at least " + request.holdAtLeast()
						+ " after its last work, and that time has not passed");
			}
			await(standing, key);
		}
		try {
			return takeOrExplain(request, key, holder, mode);
		}
		catch (LeaseHostException ex) {
			// The request may have reached the host and only its answer been lost: give
			// the grant back rather than leave it standing until its instant unused.
			try {
				this.host.release(key, holder);
			}
			catch (RuntimeException releaseFailure) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
	}

	// As take, answered by the host's non-blocking view: the future completes when the
	// host answers, and cancelling it withdraws the take.
	CompletableFuture<LeaseOutcome<HeldLease>> takeAsync(LeaseRequest request, LeaseMode mode, LeaseReleases releases) {
		LeaseKey key = request.key();
		LeaseHolder holder = holder(request);
		if (LeaseStack.holds(key)) {
			return CompletableFuture.failedFuture(new ReentrantTakeException(key, holder));
		}
		CompletableFuture<Void> standing = releases.standing(key, holder);
		if (standing != null && mode == LeaseMode.TRY_TAKE) {
			return CompletableFuture.completedFuture(LeaseOutcome.notTaken(key, "this holder holds it at least "
					+ request.holdAtLeast() + " after its last work, and that time has not passed"));
		}
		return this.async.take(request, holder, mode, standing, releases);
	}

	private LeaseHolder holder(LeaseRequest request) {
		LeaseHolder holder = request.holder();
		return (holder != null) ? holder : LeaseHolder.of(this.holderPrefix + "/" + freshId());
	}

	// A grant handed over after its instant (a waiter answered only after it stalled
	// longer than its whole term) is not taken: its term is spent.
	private LeaseOutcome<HeldLease> takeOrExplain(LeaseRequest request, LeaseKey key, LeaseHolder holder,
			LeaseMode mode) {
		if (mode == LeaseMode.TRY_TAKE) {
			return (this.host.tryTake(key, holder, request.duration()) instanceof Taken taken)
					? held(request, taken.lease(), this.clock)
					: LeaseOutcome.notTaken(key, "it is held by another holder");
		}
		try {
			long started = this.clock.getAsLong();
			TakeResult result = this.host.take(key, holder, request.duration());
			if (!(result instanceof Taken taken)) {
				return LeaseOutcome.notTaken(key, "it stayed held for the whole arrival term");
			}
			if (mayHavePassed(started, this.clock, request.duration()) && this.host.remaining(key, holder).isEmpty()) {
				return LeaseOutcome.notTaken(key,
						"it was handed over after its instant " + taken.lease().expiresAt() + " had passed");
			}
			return held(request, taken.lease(), this.clock);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw interrupted(key, ex);
		}
	}

	// A grant is made no earlier than the take was asked and runs for the whole duration,
	// so it can have passed by the time the answer arrives only if the take lasted at
	// least the duration. Only then is the host asked (on its own clock) whether it still
	// stands; the template's clock (monotonic, or a test's that moves the host's clock
	// too) merely decides whether to ask, with a margin of two.
	static boolean mayHavePassed(long startedNanos, LongSupplier clock, Duration duration) {
		return clock.getAsLong() - startedNanos >= duration.toNanos() / 2;
	}

	// The clock is read only for a hold: the answer's time matters to nothing else.
	static LeaseOutcome<HeldLease> held(LeaseRequest request, Lease lease, LongSupplier clock) {
		long takenAt = request.holdAtLeast().isZero() ? 0 : clock.getAsLong();
		return LeaseOutcome.taken(request.key(), new HeldLease(lease, request, takenAt));
	}

	// A hold ends when its grant is released, before the grant's instant, or just after
	// the instant when that ends the grant: about the arrival term the host would set.
	private static void await(CompletableFuture<Void> standing, LeaseKey key) {
		try {
			standing.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw interrupted(key, ex);
		}
		catch (ExecutionException ex) {
			// A hold ends by completing, never by failing.
		}
	}

	private static LeaseUnavailableException interrupted(LeaseKey key, InterruptedException cause) {
		LeaseUnavailableException failure = new LeaseUnavailableException(key, "interrupted while waiting");
		failure.initCause(cause);
		return failure;
	}

	// A fresh holder needs to be unique, not secret: a random UUID without SecureRandom,
	// which would serialise every leased call on its lock.
	private static UUID freshId() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		long most = (random.nextLong() & 0xffffffffffff0fffL) | 0x0000000000004000L;
		long least = (random.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
		return new UUID(most, least);
	}

}
