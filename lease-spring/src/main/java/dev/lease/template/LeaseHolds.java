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
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;

/**
 * The grants a {@link LeaseTemplate} keeps standing after their work, each until a time
 * on the template's clock: then released, or only no longer answered as held when the
 * grant's own instant is left to end it. A small daemon scheduler, started by the first
 * hold, waits for them in real time. The template's clock is the JVM's monotonic one
 * unless a test gave it one that it moves by hand: the scheduler then finds a hold not
 * yet passed and waits again, and {@link #clockMoved()} ends those the moved clock
 * passed. Closing makes the releases due within the wait it is given, when due, and
 * leaves every other grant to its instant.
 *
 * @author Lease contributors
 */
final class LeaseHolds implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeaseTemplate.class);

	// Longer waits are as good as forever, and keep the deadline's arithmetic in range.
	private static final Duration LONGEST_WAIT = Duration.ofDays(365);

	// Nanoseconds on the template's clock; only differences count.
	private final LongSupplier clock;

	private final Map<Pair, Hold> holding = new ConcurrentHashMap<>();

	private final Object lock = new Object();

	private @Nullable ScheduledThreadPoolExecutor scheduler;

	private boolean closed;

	LeaseHolds(LongSupplier clock) {
		this.clock = clock;
	}

	// A clock a test moves, read in nanoseconds from its first reading.
	static LongSupplier nanos(InstantSource clock) {
		if (clock == null) {
			throw new IllegalArgumentException("'clock' must not be null");
		}
		Instant origin = clock.instant();
		return () -> Duration.between(origin, clock.instant()).toNanos();
	}

	long now() {
		return this.clock.getAsLong();
	}

	// Keeps the grant standing for its holder until 'atNanos', then runs the release, if
	// any; without one, the hold only stops answering the grant as held.
	void hold(HeldLease held, long atNanos, @Nullable Runnable release) {
		Hold hold = new Hold(held, atNanos, release);
		this.holding.put(hold.pair, hold);
		synchronized (this.lock) {
			if (!this.closed) {
				hold.timer = scheduler().schedule(() -> due(hold), Math.max(0, atNanos - now()), TimeUnit.NANOSECONDS);
				return;
			}
		}
		this.holding.remove(hold.pair, hold);
		hold.ended.complete(null);
		logger.info("The lease on key '" + held.lease().key() + "' was held at least " + held.request().holdAtLeast()
				+ " by a closed template: it ends at its instant");
	}

	// The scheduler waited real time: a clock moved by hand may not have reached the
	// hold's end yet, nor reach it by itself.
	private void due(Hold hold) {
		long left = hold.atNanos - now();
		if (left > 0) {
			synchronized (this.lock) {
				if (!this.closed) {
					hold.timer = scheduler().schedule(() -> due(hold), left, TimeUnit.NANOSECONDS);
				}
			}
			return;
		}
		end(hold);
	}

	// Once, whether the scheduler or a moved clock comes first.
	private void end(Hold hold) {
		if (!hold.ending.compareAndSet(false, true)) {
			return;
		}
		try {
			if (hold.release != null) {
				hold.release.run();
			}
		}
		finally {
			this.holding.remove(hold.pair, hold);
			hold.ended.complete(null);
		}
	}

	// The clock was moved by hand: the holds it passed end now, on the caller's thread,
	// rather than when the scheduler comes to them.
	void clockMoved() {
		synchronized (this.lock) {
			if (this.closed) {
				return;
			}
		}
		long now = now();
		for (Hold hold : this.holding.values()) {
			if (hold.atNanos - now <= 0) {
				ScheduledFuture<?> timer = hold.timer;
				if (timer != null) {
					timer.cancel(false);
				}
				end(hold);
			}
		}
	}

	// The end of the hold that keeps the holder's grant on the key standing after its
	// work, if one does.
	@Nullable CompletableFuture<Void> standing(LeaseKey key, LeaseHolder holder) {
		Hold hold = this.holding.isEmpty() ? null : this.holding.get(new Pair(key, holder));
		return (hold != null) ? hold.ended : null;
	}

	private ScheduledThreadPoolExecutor scheduler() {
		if (this.scheduler == null) {
			AtomicInteger threads = new AtomicInteger();
			ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, (task) -> {
				Thread thread = new Thread(task, "lease-held-release-" + threads.incrementAndGet());
				thread.setDaemon(true);
				return thread;
			});
			scheduler.setRemoveOnCancelPolicy(true);
			this.scheduler = scheduler;
		}
		return this.scheduler;
	}

	// Releasing a held grant before its hold ends would let another instance run the same
	// work again, which is what the hold is for; dropping one due soon would keep the
	// other instances out until its instant. So each release due within the wait is made
	// when due, and only the others are left to their instants.
	void close(Duration wait) {
		long waitNanos = (wait.compareTo(LONGEST_WAIT) < 0) ? wait.toNanos() : LONGEST_WAIT.toNanos();
		long deadline = System.nanoTime() + waitNanos;
		List<Hold> left = new ArrayList<>();
		ScheduledThreadPoolExecutor scheduler;
		synchronized (this.lock) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			scheduler = this.scheduler;
			long now = now();
			for (Hold hold : this.holding.values()) {
				if (hold.release == null || hold.atNanos - now - waitNanos > 0) {
					drop(hold, left);
				}
			}
			if (scheduler != null) {
				// Delayed tasks still run after shutdown: the releases kept are made.
				scheduler.shutdown();
			}
		}
		if (scheduler != null && !awaitTermination(scheduler, deadline)) {
			scheduler.shutdownNow();
		}
		// What is still kept (the wait passed, or a test's clock did not reach the hold)
		// ends at its instant.
		this.holding.values().forEach((hold) -> drop(hold, left));
		for (Hold hold : left) {
			logger.info("The lease on key '" + hold.held.lease().key() + "' held at least "
					+ hold.held.request().holdAtLeast() + " was not released on close within " + wait
					+ ": it ends at its instant " + hold.held.lease().expiresAt());
		}
	}

	// A release already under way is left to finish and is not counted.
	private void drop(Hold hold, List<Hold> left) {
		ScheduledFuture<?> timer = hold.timer;
		if (timer != null) {
			timer.cancel(false);
		}
		if (hold.ending.compareAndSet(false, true)) {
			this.holding.remove(hold.pair, hold);
			hold.ended.complete(null);
			if (hold.release != null) {
				left.add(hold);
			}
		}
	}

	private static boolean awaitTermination(ScheduledThreadPoolExecutor scheduler, long deadline) {
		try {
			return scheduler.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public void close() {
		close(LeaseReleases.DEFAULT_CLOSE_WAIT);
	}

	private record Pair(LeaseKey key, LeaseHolder holder) {

	}

	/**
	 * A grant kept standing after its work until {@code atNanos} on the template's clock.
	 */
	private static final class Hold {

		final Pair pair;

		final HeldLease held;

		final long atNanos;

		final @Nullable Runnable release;

		final CompletableFuture<Void> ended = new CompletableFuture<>();

		final AtomicBoolean ending = new AtomicBoolean();

		volatile @Nullable ScheduledFuture<?> timer;

		Hold(HeldLease held, long atNanos, @Nullable Runnable release) {
			this.pair = new Pair(held.lease().key(), held.lease().holder());
			this.held = held;
			this.atNanos = atNanos;
			this.release = release;
		}

	}

}
