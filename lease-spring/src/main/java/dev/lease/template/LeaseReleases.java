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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.lease.AsyncLeaseHost;
import dev.lease.Lease;
import dev.lease.LeaseExpiredException;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.ReleaseResult;
import dev.lease.host.HeldGrants;

/**
 * How a {@link LeaseTemplate}'s grants end: released at once, or, when the work finished
 * before the grant was {@link LeaseRequest#holdAtLeast() old enough}, released later
 * ({@link HeldGrants}), or left to end at its instant. A release answered {@link NotHeld}
 * right after the work is an overrun (Non-goal 11).
 * <p>
 * While a grant is held on past its work, a take by the same holder on the same key would
 * be answered as reentrant by the host: {@link #standing} lets the template answer it as
 * the other instances are answered, held.
 * <p>
 * A hold is measured on the template's clock and kept by {@link HeldGrants}.
 *
 * @author Lease contributors
 */
final class LeaseReleases implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeaseTemplate.class);

	// A held release is not scheduled closer than this to the grant's instant: a
	// scheduler running late would otherwise reach the instant and be answered NotHeld.
	// The instant ends the grant instead, at most this much later than asked.
	static final long INSTANT_MARGIN_NANOS = Duration.ofMillis(100).toNanos();

	private final LeaseHost host;

	private final AsyncLeaseHost async;

	private final OnOverrun onOverrun;

	private final HeldGrants holds;

	LeaseReleases(LeaseHost host, OnOverrun onOverrun, LongSupplier clock) {
		this.host = host;
		this.async = AsyncLeaseHost.of(host);
		this.onOverrun = onOverrun;
		this.holds = new HeldGrants(clock, logger::info, "template", "lease-held-release");
	}

	// Ends a grant whose work completed: releases it now, or keeps it until it is old
	// enough. Answers the exception to throw for an overrun, if any. The host is asked on
	// this thread, so the answer is made when this returns.
	@Nullable LeaseExpiredException finish(HeldLease held) {
		try {
			return finish(held, true).join();
		}
		catch (CompletionException ex) {
			throw LeaseReleases.<RuntimeException>thrown((ex.getCause() != null) ? ex.getCause() : ex);
		}
	}

	// The work finished before the grant was old enough. Whether it finished within its
	// term is the host's to say (Operation 8, 10): a grant already ended is an overrun,
	// answered now rather than when the hold would have ended.
	private CompletableFuture<@Nullable LeaseExpiredException> finish(HeldLease held, boolean blocking) {
		if (!held.finish()) {
			return CompletableFuture.completedFuture(null);
		}
		long hold = held.request().holdAtLeast().toNanos();
		if (hold == 0 || this.holds.now() - held.takenAtNanos() >= hold) {
			return release(held, blocking);
		}
		long dueNanos = held.takenAtNanos() + hold;
		Lease lease = held.lease();
		long asked = this.holds.now();
		return ask(blocking, () -> this.host.remaining(lease.key(), lease.holder()),
				() -> this.async.remaining(lease.key(), lease.holder()))
			.handle((remaining, failure) -> {
				if (failure != null) {
					logger.debug("Could not ask for the remaining term of the lease on key '" + lease.key()
							+ "'; it is released when it is old enough", failure);
					schedule(held, dueNanos, true);
				}
				else if (remaining.isEmpty()) {
					return release(held, blocking);
				}
				else {
					keep(held, dueNanos, asked, remaining.get());
				}
				return CompletableFuture.<@Nullable LeaseExpiredException>completedFuture(null);
			})
			.thenCompose((released) -> released);
	}

	// Gives back a grant nobody will use (its caller went away): no overrun to answer.
	void giveBack(HeldLease held) {
		if (held.finish()) {
			release(held, false);
		}
	}

	// A host failure is logged, not answered: the grant then ends at its instant.
	private CompletableFuture<@Nullable LeaseExpiredException> release(HeldLease held, boolean blocking) {
		Lease lease = held.lease();
		return ask(blocking, () -> this.host.release(lease.key(), lease.holder()),
				() -> this.async.release(lease.key(), lease.holder()))
			.handle((result, failure) -> {
				if (failure != null) {
					releaseFailed(held, failure);
					return null;
				}
				// NotHeld right after the work: it outran its term (Non-goal 11)
				if (!(result instanceof NotHeld)) {
					return null;
				}
				logger.warn(held.request().describe() + " outran its lease: the grant on key '" + lease.key()
						+ "' for holder '" + lease.holder() + "' ended at " + lease.expiresAt()
						+ " before the call completed. Choose a longer duration than " + held.request().duration()
						+ ", or shorter work");
				return (this.onOverrun == OnOverrun.FAIL) ? new LeaseExpiredException(lease) : null;
			});
	}

	// A view that throws rather than failing its future is answered as if it had failed
	// it, so that what depends on the answer still runs.
	static <T> CompletableFuture<T> ask(Supplier<CompletableFuture<T>> question) {
		try {
			return question.get();
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	// Asked on the caller's thread, a host's RuntimeException answers as the view's
	// failure would; anything else it throws is thrown as it was.
	private static <T> CompletableFuture<T> ask(boolean blocking, Supplier<T> onCallersThread,
			Supplier<CompletableFuture<T>> viewed) {
		return ask(blocking ? () -> CompletableFuture.completedFuture(onCallersThread.get()) : viewed);
	}

	@SuppressWarnings("unchecked")
	private static <E extends Throwable> E thrown(Throwable failure) throws E {
		throw (E) failure;
	}

	private void keep(HeldLease held, long dueNanos, long asked, Duration remaining) {
		// The host read the remaining term after this thread asked, so the instant is no
		// earlier than 'asked + remaining' here, and no later than 'now + remaining'.
		// A hold due within the margin of the instant releases nothing: the instant ends
		// it.
		long term = remaining.toNanos();
		boolean instantEndsIt = dueNanos - (asked + term - INSTANT_MARGIN_NANOS) >= 0;
		schedule(held, instantEndsIt ? this.holds.now() + term + INSTANT_MARGIN_NANOS : dueNanos, !instantEndsIt);
	}

	// Keeps the grant standing for its holder until 'atNanos', then releases it, or only
	// stops answering it as held when the instant is left to end it.
	private void schedule(HeldLease held, long atNanos, boolean release) {
		this.holds.hold(held.lease(), held.request().holdAtLeast(), atNanos, release ? () -> releaseHeld(held) : null);
	}

	// The end of the hold that keeps the holder's grant on the key standing after its
	// work, if one does.
	@Nullable CompletableFuture<Void> standing(LeaseKey key, LeaseHolder holder) {
		return this.holds.standing(key, holder);
	}

	// The clock was moved by hand: the holds it passed end now, on the caller's thread.
	void clockMoved() {
		this.holds.clockMoved();
	}

	// As finish, asked through the host's non-blocking view: the future completes once
	// the release (or the remaining question of a hold) is answered, never waiting
	// behind takes for a thread, and fails with an overrun.
	CompletableFuture<Void> finishOrFailAsync(HeldLease held) {
		CompletableFuture<Void> released = new CompletableFuture<>();
		finish(held, false).whenComplete((overrun, failure) -> settle(released, null, failure, overrun));
		return released;
	}

	// The work ended within its term (the host said so when it completed); a NotHeld now
	// means the scheduler ran this release after the instant, which ended the grant.
	private void releaseHeld(HeldLease held) {
		Lease lease = held.lease();
		ReleaseResult result;
		try {
			result = this.host.release(lease.key(), lease.holder());
		}
		catch (RuntimeException ex) {
			releaseFailed(held, ex);
			return;
		}
		if (result instanceof NotHeld) {
			logger.warn("The release of the lease on key '" + held.lease().key() + "' held at least "
					+ held.request().holdAtLeast() + " came after its instant " + held.lease().expiresAt()
					+ ", which had ended the grant; " + held.request().describe() + " had completed within its term");
		}
	}

	private static void releaseFailed(HeldLease held, Throwable failure) {
		Lease lease = held.lease();
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		logger.warn("Release of the lease on key '" + lease.key() + "' after " + held.request().describe()
				+ " failed; the grant ends at its instant " + lease.expiresAt(), cause);
	}

	/**
	 * Stop keeping grants after their work: the releases due within the wait are made
	 * when due, and every other kept grant ends at its instant.
	 * @param wait how long to wait for the releases still due
	 */
	void close(Duration wait) {
		this.holds.close(wait);
	}

	@Override
	public void close() {
		close(HeldGrants.DEFAULT_CLOSE_WAIT);
	}

	// Completes the result as the work ended, or with the overrun its release found.
	static <T> void settle(CompletableFuture<T> result, @Nullable T value, @Nullable Throwable failure,
			@Nullable LeaseExpiredException overrun) {
		if (failure != null) {
			suppressOverrun(failure, overrun);
			result.completeExceptionally(failure);
		}
		else if (overrun != null) {
			result.completeExceptionally(overrun);
		}
		else {
			result.complete(value);
		}
	}

	// A failure of the work carries the overrun its release found, rather than hide it.
	static void suppressOverrun(Throwable failure, @Nullable LeaseExpiredException overrun) {
		if (overrun != null) {
			failure.addSuppressed(overrun);
		}
	}

}
