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
import java.time.InstantSource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

import dev.lease.LeaseExpiredException;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseUnavailableException;
import dev.lease.ReentrantTakeException;
import dev.lease.annotation.LeaseMode;
import dev.lease.host.HeldGrants;

/**
 * Runs work under a lease, for keys known only at run time and code without proxies: the
 * programmatic form of {@link dev.lease.annotation.Leased @Leased}, which delegates here.
 * <pre class="code">
 * Receipt receipt = leases.call(LeaseRequest.of("order:" + id, Duration.ofSeconds(30)),
 *         (lease) -&gt; settlement.settle(id));
 * boolean ran = leases.tryRun(LeaseRequest.of("nightly-report", Duration.ofMinutes(10))
 *         .withHoldAtLeast(Duration.ofSeconds(30)), (lease) -&gt; reports.build());
 * </pre> Every form does the same, in this order:
 * <ol>
 * <li>a key the current thread already holds through a leased call is refused with
 * {@link ReentrantTakeException} before the host is asked (Non-goal 1);</li>
 * <li>the key is taken for the request's holder, or a fresh {@code <prefix>/<uuid>} one:
 * waiting at most the arrival term ({@link LeaseMode#TAKE}) or never waiting
 * ({@link LeaseMode#TRY_TAKE}). A take whose answer was lost at the host is given back; a
 * grant handed over after its instant had passed is not taken;</li>
 * <li>the work runs with the grant bound to the thread ({@link LeaseStack}), so a
 * {@code @Fenced} call inside mints its fence from it;</li>
 * <li>the grant is released when the work completes, by return or throw, or for the
 * {@code Async} forms when the returned stage completes. A release answered
 * {@link dev.lease.NotHeld} is an overrun (Non-goal 11): a warning, {@code lease.overrun}
 * when the host is metered, and with {@link OnOverrun#FAIL} a
 * {@link LeaseExpiredException} (added as suppressed to a failure of the work).</li>
 * </ol>
 * <p>
 * <strong>Holding at least.</strong> With {@link LeaseRequest#holdAtLeast()}, work that
 * completes before its grant is that old (from the take's answer, on this JVM's monotonic
 * clock or a test's: {@link #withHoldClock}) returns at once, and one daemon thread of
 * the template releases the grant when it is old enough: blocking would hold a thread of
 * Spring's task scheduler and delay every other job. An overrun is still answered when
 * the work completes (one {@code remaining} call). A hold ending within 100 ms of the
 * grant's instant releases nothing: the instant ends it, never extended. Until the hold
 * ends, the same holder's take is answered as any other holder's, never as reentrant.
 * Closing makes each release still waiting when it is due, so a restart within the hold
 * keeps other instances out for the hold, not the duration: {@link #close(Duration)}
 * waits at most the given time (Spring Boot passes
 * {@code spring.lifecycle.timeout-per-shutdown-phase}), {@link #close()} 30 seconds; a
 * release due later is never made early, and its grant ends at its instant (logged).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseTemplate implements AutoCloseable {

	private final LeaseHost host;

	private final LeaseTakes takes;

	private final LeaseReleases releases;

	private final String holderPrefix;

	private final OnOverrun onOverrun;

	/**
	 * Create a template: holders {@code lease-template:<pid>/<uuid>}, overruns warned of.
	 * @param host the host to take leases on
	 */
	public LeaseTemplate(LeaseHost host) {
		this(host, "lease-template:" + ProcessHandle.current().pid(), OnOverrun.WARN);
	}

	/**
	 * Create a template.
	 * @param host the host to take leases on
	 * @param holderPrefix the prefix of the fresh holder each call gets when its request
	 * names none
	 * @param onOverrun what a call does when it outran its term
	 */
	public LeaseTemplate(LeaseHost host, String holderPrefix, OnOverrun onOverrun) {
		this(host, holderPrefix, onOverrun, System::nanoTime);
	}

	private LeaseTemplate(LeaseHost host, String holderPrefix, OnOverrun onOverrun, LongSupplier clock) {
		Assert.isTrue(host != null && onOverrun != null, "'host' and 'onOverrun' must not be null");
		Assert.isTrue(holderPrefix != null && !holderPrefix.isBlank(), "'holderPrefix' must not be empty");
		this.host = host;
		this.holderPrefix = holderPrefix;
		this.onOverrun = onOverrun;
		this.takes = new LeaseTakes(host, holderPrefix, clock);
		this.releases = new LeaseReleases(host, onOverrun, clock);
	}

	/**
	 * Return a template like this one that measures holds on the given clock, not the
	 * JVM's monotonic one: a test's, which it moves by hand, calling
	 * {@link #clockMoved()}.
	 * @param clock the clock the test moves
	 * @return a new template over the same host, holder prefix and overrun handling
	 */
	public LeaseTemplate withHoldClock(InstantSource clock) {
		return new LeaseTemplate(this.host, this.holderPrefix, this.onOverrun, HeldGrants.nanos(clock));
	}

	/**
	 * Tell the template that its {@link #withHoldClock hold clock} was moved: the holds
	 * it passed end now, on the calling thread, not after the real time the template
	 * waits.
	 */
	public void clockMoved() {
		this.releases.clockMoved();
	}

	/**
	 * Return the host this template takes leases on.
	 * @return the host
	 */
	public LeaseHost getHost() {
		return this.host;
	}

	/**
	 * Wait for the key, run the work under it, and release it.
	 * @param <E> the work's checked exception
	 * @param request what to take
	 * @param work the work
	 * @throws LeaseUnavailableException when the key was not taken: the work did not run
	 * @throws E the work's failure
	 */
	public <E extends Throwable> void run(LeaseRequest request, LeaseRunnable<E> work) throws E {
		execute(request, LeaseMode.TAKE, (lease) -> {
			work.run(lease);
			return null;
		}).orElseThrow();
	}

	/**
	 * Wait for the key, call the work under it, and release it.
	 * @param <T> the work's value
	 * @param <E> the work's checked exception
	 * @param request what to take
	 * @param work the work
	 * @return the work's value
	 * @throws LeaseUnavailableException when the key was not taken: the work did not run
	 * @throws E the work's failure
	 */
	public <T extends @Nullable Object, E extends Throwable> T call(LeaseRequest request, LeaseCallback<T, E> work)
			throws E {
		return execute(request, LeaseMode.TAKE, work).orElseThrow();
	}

	/**
	 * Wait for the key on this thread, call the work under it, and release the key when
	 * the stage the work returned completes.
	 * @param <T> the stage's value
	 * @param <E> the work's checked exception
	 * @param request what to take
	 * @param work the work, answering a stage
	 * @return a future completed as the work's stage once the key is released; failed
	 * with {@link LeaseExpiredException} for an overrun under {@link OnOverrun#FAIL}
	 * @throws LeaseUnavailableException when the key was not taken: the work did not run
	 * @throws E the work's failure before it answered a stage
	 */
	public <T extends @Nullable Object, E extends Throwable> CompletableFuture<T> callAsync(LeaseRequest request,
			LeaseCallback<? extends @Nullable CompletionStage<T>, E> work) throws E {
		return executeAsync(request, LeaseMode.TAKE, work).orElseThrow();
	}

	/**
	 * Run the work under the key if it can be taken without waiting, and release it.
	 * @param <E> the work's checked exception
	 * @param request what to take
	 * @param work the work
	 * @return whether the key was taken and the work ran; {@code false} when it was held
	 * @throws E the work's failure
	 */
	public <E extends Throwable> boolean tryRun(LeaseRequest request, LeaseRunnable<E> work) throws E {
		return execute(request, LeaseMode.TRY_TAKE, (lease) -> {
			work.run(lease);
			return null;
		}).isTaken();
	}

	/**
	 * Take the key as the mode says, call the work under it, and release it.
	 * @param <T> the work's value
	 * @param <E> the work's checked exception
	 * @param request what to take
	 * @param mode whether to wait for the key
	 * @param work the work
	 * @return the work's value, or why the key was not taken
	 * @throws E the work's failure
	 */
	public <T extends @Nullable Object, E extends Throwable> LeaseOutcome<T> execute(LeaseRequest request,
			LeaseMode mode, LeaseCallback<T, E> work) throws E {
		LeaseOutcome<HeldLease> taken = take(request, mode);
		HeldLease held = taken.value();
		if (held == null) {
			return LeaseOutcome.notTaken(request.key(), taken.reasonNotTaken());
		}
		T value = callBound(held, work);
		release(held);
		return LeaseOutcome.taken(request.key(), value);
	}

	/**
	 * Take the key on this thread as the mode says, call the work under it, and release
	 * the key when the stage the work returned completes. The grant is bound to the
	 * thread only while the work itself runs, not while its stage completes elsewhere.
	 * @param <T> the stage's value
	 * @param <E> the work's checked exception
	 * @param request what to take
	 * @param mode whether to wait for the key
	 * @param work the work, answering a stage ({@code null} counts as completed)
	 * @return a future completed as the work's stage once the key is released (failed
	 * with {@link LeaseExpiredException} for an overrun under {@link OnOverrun#FAIL}), or
	 * why the key was not taken
	 * @throws E the work's failure before it answered a stage
	 */
	public <T extends @Nullable Object, E extends Throwable> LeaseOutcome<CompletableFuture<T>> executeAsync(
			LeaseRequest request, LeaseMode mode, LeaseCallback<? extends @Nullable CompletionStage<T>, E> work)
			throws E {
		LeaseOutcome<HeldLease> taken = take(request, mode);
		HeldLease held = taken.value();
		if (held == null) {
			return LeaseOutcome.notTaken(request.key(), taken.reasonNotTaken());
		}
		CompletionStage<T> stage = callBound(held, work);
		if (stage == null) {
			release(held);
			return LeaseOutcome.taken(request.key(), CompletableFuture.completedFuture(null));
		}
		CompletableFuture<T> completed = new CompletableFuture<>();
		stage.whenComplete((value, failure) -> {
			LeaseExpiredException overrun;
			try {
				overrun = this.releases.finish(held);
			}
			catch (RuntimeException | Error ex) {
				completed.completeExceptionally(ex);
				return;
			}
			LeaseReleases.settle(completed, value, failure, overrun);
		});
		return LeaseOutcome.taken(request.key(), completed);
	}

	// The work runs with the grant bound to this thread; a work that throws ends the
	// grant before its failure goes on.
	private <R extends @Nullable Object, E extends Throwable> R callBound(HeldLease held, LeaseCallback<R, E> work)
			throws E {
		R value;
		LeaseStack.push(held.lease());
		try {
			value = work.doInLease(held.lease());
		}
		catch (Throwable ex) {
			LeaseStack.pop(held.lease());
			LeaseReleases.suppressOverrun(ex, this.releases.finish(held));
			throw ex;
		}
		LeaseStack.pop(held.lease());
		return value;
	}

	/**
	 * Take the key for work that cannot run inside a callback, such as a reactive
	 * pipeline: the caller must end the grant with {@link #release(HeldLease)}, on every
	 * path. The grant is not bound to the thread. Prefer the callback forms.
	 * @param request what to take
	 * @param mode whether to wait for the key
	 * @return the grant held, or why the key was not taken
	 * @throws ReentrantTakeException when this thread already holds the key through a
	 * leased call
	 * @throws LeaseUnavailableException when interrupted while waiting
	 * @throws LeaseHostException when the host failed; a grant it may have made is given
	 * back
	 */
	public LeaseOutcome<HeldLease> take(LeaseRequest request, LeaseMode mode) {
		return this.takes.take(request, mode, this.releases);
	}

	/**
	 * End a grant from {@link #take(LeaseRequest, LeaseMode)}: release it now, or once it
	 * is {@link LeaseRequest#holdAtLeast() old enough}. A second call does nothing.
	 * @param held the grant
	 * @throws LeaseExpiredException when the work outran its term and overruns fail
	 */
	public void release(HeldLease held) {
		LeaseExpiredException overrun = this.releases.finish(held);
		if (overrun != null) {
			throw overrun;
		}
	}

	/**
	 * Take the key as {@link #take(LeaseRequest, LeaseMode)} does, without holding the
	 * calling thread: asked through the host's {@link LeaseHost#async() non-blocking
	 * view}, so that a waiting take holds no thread and waits in the host's own arrival
	 * order. Cancelling the returned future withdraws the take, and a grant made at that
	 * moment is given back. The caller must end a grant with
	 * {@link #releaseAsync(HeldLease)} (or {@link #release(HeldLease)}), on every path;
	 * it is not bound to the thread.
	 * @param request what to take
	 * @param mode whether to wait for the key
	 * @return a future of the grant held, or why the key was not taken; failed with
	 * {@link ReentrantTakeException} when this thread already holds the key through a
	 * leased call, and with {@link LeaseHostException} when the host failed (a grant it
	 * may have made is given back)
	 * @since 0.1.0
	 */
	public CompletableFuture<LeaseOutcome<HeldLease>> takeAsync(LeaseRequest request, LeaseMode mode) {
		return this.takes.takeAsync(request, mode, this.releases);
	}

	/**
	 * End a grant as {@link #release(HeldLease)} does, without holding the calling
	 * thread: the release is asked through the host's non-blocking view, which never
	 * makes it wait behind takes. The future completes once the host answered, so a
	 * caller that signals its own completion after it knows the key is released.
	 * @param held the grant
	 * @return a future completed once the grant is released (or kept for its hold);
	 * failed with {@link LeaseExpiredException} when the work outran its term and
	 * overruns fail
	 * @since 0.1.0
	 */
	public CompletableFuture<Void> releaseAsync(HeldLease held) {
		return this.releases.finishOrFailAsync(held);
	}

	/**
	 * Close as {@link #close(Duration)} does, waiting at most 30 seconds.
	 */
	@Override
	public void close() {
		this.releases.close();
	}

	/**
	 * Stop keeping grants after their work: each release held back by
	 * {@link LeaseRequest#holdAtLeast()} and due within the wait is made when due, and
	 * this returns once they are made, or when the wait has passed. A release due later
	 * is not made early: its grant ends at its instant, logged with its key, as do grants
	 * kept for work completing after the close. A second close does nothing.
	 * @param wait how long to wait at most for the releases still due
	 */
	public void close(Duration wait) {
		Assert.isTrue(wait != null && !wait.isNegative(), "'wait' must not be null or negative");
		this.releases.close(wait);
	}

}
