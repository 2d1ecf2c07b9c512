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
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import dev.lease.AsyncLeaseHost;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.LeaseUnavailableException;
import dev.lease.ReentrantTakeException;
import dev.lease.Taken;
import dev.lease.annotation.LeaseMode;

/**
 * How a {@link LeaseTemplate} takes a key: the reentrancy refusal, the holder, the hold
 * the holder's own grant still stands for, the take or try take, a lost answer given
 * back, a grant handed over too late refused, and a grant made for a caller that went
 * away given back. The steps are written once, against {@link AsyncLeaseHost}. A
 * non-blocking take asks the host's own view, so that a waiting take holds no thread and
 * waits in the host's arrival order, and cancelling its answer withdraws it. A blocking
 * take asks a view that answers on the caller's thread ({@link CallersThreadLeaseHost}),
 * so that its wait stays interruptible and the caller's thread-locals its own.
 *
 * @author Lease contributors
 */
final class LeaseTakes {

	private final AsyncLeaseHost onCallersThread;

	private final AsyncLeaseHost async;

	private final String holderPrefix;

	// Nanoseconds on the template's clock, as LeaseReleases reads it.
	private final LongSupplier clock;

	LeaseTakes(LeaseHost host, String holderPrefix, LongSupplier clock) {
		this.onCallersThread = new CallersThreadLeaseHost(host);
		this.async = AsyncLeaseHost.of(host);
		this.holderPrefix = holderPrefix;
		this.clock = clock;
	}

	// Each question is answered before it returns, so the take is answered when this
	// returns: what the host threw is thrown as it threw it.
	LeaseOutcome<HeldLease> take(LeaseRequest request, LeaseMode mode, LeaseReleases releases) {
		LeaseKey key = request.key();
		CompletableFuture<LeaseOutcome<HeldLease>> answer = take(this.onCallersThread, request, mode, releases,
				(standing) -> awaitOnCallersThread(standing, key));
		if (!answer.isDone()) {
			throw new IllegalStateException("The take of key '" + key + "' was not answered on the caller's thread");
		}
		try {
			return answer.join();
		}
		catch (CompletionException ex) {
			Throwable cause = ex.getCause();
			throw rethrown((cause != null) ? cause : ex, key);
		}
	}

	// As take, answered by the host's non-blocking view: the future completes when the
	// host answers, and cancelling it withdraws the take.
	CompletableFuture<LeaseOutcome<HeldLease>> takeAsync(LeaseRequest request, LeaseMode mode, LeaseReleases releases) {
		return take(this.async, request, mode, releases, UnaryOperator.identity());
	}

	private CompletableFuture<LeaseOutcome<HeldLease>> take(AsyncLeaseHost host, LeaseRequest request, LeaseMode mode,
			LeaseReleases releases, UnaryOperator<CompletableFuture<Void>> standingEnds) {
		LeaseKey key = request.key();
		LeaseHolder holder = (request.holder() != null) ? request.holder()
				: LeaseHolder.of(this.holderPrefix + "/" + freshId());
		if (LeaseStack.holds(key)) {
			return CompletableFuture.failedFuture(new ReentrantTakeException(key, holder));
		}
		CompletableFuture<Void> standing = releases.standing(key, holder);
		if (standing != null && mode == LeaseMode.TRY_TAKE) {
			return CompletableFuture.completedFuture(LeaseOutcome.notTaken(key, "this holder holds it at least "
					+ request.holdAtLeast() + " after its last work, and that time has not passed"));
		}
		Asking asking = new Asking(host, request, holder, mode, releases);
		if (standing == null) {
			asking.ask();
		}
		else {
			// the holder's own grant, held on after its work, ends first
			standingEnds.apply(standing).whenComplete((ended, failure) -> asking.ask());
		}
		return asking.answer;
	}

	// A grant is made no earlier than the take was asked and runs for the whole duration,
	// so it can have passed by the time the answer arrives only if the take lasted at
	// least the duration. Only then is the host asked (on its own clock) whether it still
	// stands; the template's clock (monotonic, or a test's that moves the host's clock
	// too) merely decides whether to ask, with a margin of two.
	private boolean mayHavePassed(long startedNanos, Duration duration) {
		return this.clock.getAsLong() - startedNanos >= duration.toNanos() / 2;
	}

	// The clock is read only for a hold: the answer's time matters to nothing else.
	private LeaseOutcome<HeldLease> held(LeaseRequest request, Lease lease) {
		long takenAt = request.holdAtLeast().isZero() ? 0 : this.clock.getAsLong();
		return LeaseOutcome.taken(request.key(), new HeldLease(lease, request, takenAt));
	}

	// A hold ends when its grant is released, before the grant's instant, or just after
	// the instant when that ends the grant: about the arrival term the host would set.
	// A blocking take waits for it here, interruptibly; an interrupt is thrown from here.
	private static CompletableFuture<Void> awaitOnCallersThread(CompletableFuture<Void> standing, LeaseKey key) {
		try {
			standing.get();
		}
		catch (InterruptedException ex) {
			throw rethrown(ex, key);
		}
		catch (ExecutionException ex) {
			// A hold ends by completing, never by failing.
		}
		return standing;
	}

	// What the host threw is thrown as it was, an error or a checked exception of a host
	// written in another language too; an interrupted wait as the template's refusal.
	@SuppressWarnings("unchecked")
	private static <E extends Throwable> RuntimeException rethrown(Throwable failure, LeaseKey key) throws E {
		if (failure instanceof InterruptedException ex) {
			Thread.currentThread().interrupt();
			LeaseUnavailableException interrupted = new LeaseUnavailableException(key, "interrupted while waiting");
			interrupted.initCause(ex);
			return interrupted;
		}
		throw (E) failure;
	}

	// A fresh holder needs to be unique, not secret: a random UUID without SecureRandom,
	// which would serialise every leased call on its lock.
	private static UUID freshId() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		long most = (random.nextLong() & 0xffffffffffff0fffL) | 0x0000000000004000L;
		long least = (random.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
		return new UUID(most, least);
	}

	/**
	 * One take, asked of one view: its answer, and the question to the host that
	 * cancelling the answer withdraws, also when it comes before the question is asked.
	 */
	private final class Asking {

		final CompletableFuture<LeaseOutcome<HeldLease>> answer = new CompletableFuture<>();

		private final AtomicReference<@Nullable CompletableFuture<?>> asked = new AtomicReference<>();

		private final AsyncLeaseHost host;

		private final LeaseRequest request;

		private final LeaseHolder holder;

		private final LeaseMode mode;

		private final LeaseReleases releases;

		Asking(AsyncLeaseHost host, LeaseRequest request, LeaseHolder holder, LeaseMode mode, LeaseReleases releases) {
			this.host = host;
			this.request = request;
			this.holder = holder;
			this.mode = mode;
			this.releases = releases;
			this.answer.whenComplete((outcome, failure) -> {
				CompletableFuture<?> question = this.asked.get();
				if (this.answer.isCancelled() && question != null) {
					question.cancel(false);
				}
			});
		}

		void ask() {
			if (this.answer.isDone()) {
				return;
			}
			LeaseKey key = this.request.key();
			Duration duration = this.request.duration();
			// A try take is answered at once: its clock is never read.
			boolean tryTake = this.mode == LeaseMode.TRY_TAKE;
			long started = tryTake ? 0 : LeaseTakes.this.clock.getAsLong();
			CompletableFuture<?> question = tryTake
					? LeaseReleases.ask(() -> this.host.tryTake(key, this.holder, duration))
					: LeaseReleases.ask(() -> this.host.take(key, this.holder, duration));
			// an answer cancelled before the question was asked withdraws it now
			this.asked.set(question);
			if (this.answer.isCancelled()) {
				question.cancel(false);
			}
			question.whenComplete((result, failure) -> {
				if (failure != null) {
					fail(failure);
				}
				else if (!(result instanceof Taken taken)) {
					deliver(LeaseOutcome.notTaken(key,
							tryTake ? "it is held by another holder" : "it stayed held for the whole arrival term"));
				}
				else if (!tryTake && mayHavePassed(started, duration)) {
					deliverIfStanding(taken.lease());
				}
				else {
					deliver(held(this.request, taken.lease()));
				}
			});
		}

		// A grant handed over after its instant (a waiter answered only after it stalled
		// longer than its whole term) is not taken: its term is spent.
		private void deliverIfStanding(Lease lease) {
			LeaseReleases.ask(() -> this.host.remaining(lease.key(), this.holder))
				.whenComplete((remaining, failure) -> {
					if (failure != null) {
						fail(failure);
					}
					else {
						deliver(remaining.isEmpty()
								? LeaseOutcome.notTaken(lease.key(),
										"it was handed over after its instant " + lease.expiresAt() + " had passed")
								: held(this.request, lease));
					}
				});
		}

		private void deliver(LeaseOutcome<HeldLease> outcome) {
			HeldLease held = outcome.value();
			if (!this.answer.complete(outcome) && held != null) {
				// the caller went away while the grant was being made: give it back
				this.releases.giveBack(held);
			}
		}

		// The request may have reached the host and only its answer been lost: give the
		// grant back rather than leave it standing until its instant unused.
		private void fail(Throwable failure) {
			Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
					? failure.getCause() : failure;
			if (cause instanceof CancellationException) {
				this.answer.cancel(false);
				return;
			}
			if (!(cause instanceof LeaseHostException)) {
				this.answer.completeExceptionally(cause);
				return;
			}
			LeaseReleases.ask(() -> this.host.release(this.request.key(), this.holder))
				.whenComplete((released, releaseFailure) -> {
					if (releaseFailure != null) {
						cause.addSuppressed(releaseFailure);
					}
					this.answer.completeExceptionally(cause);
				});
		}

	}

}
