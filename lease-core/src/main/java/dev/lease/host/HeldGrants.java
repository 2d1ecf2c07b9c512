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

package dev.lease.host;

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
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;

/**
 * Grants kept standing after their work, each until a time on its owner's clock (a hold
 * at least, ShedLock's {@code lockAtLeastFor}): then released, or only no longer answered
 * as held when the grant's own instant is left to end it. A small daemon scheduler,
 * started by the first hold, waits for them in real time. The clock is the JVM's
 * monotonic one unless a test gave one that it moves by hand: the scheduler then finds a
 * hold not yet passed and waits again, and {@link #clockMoved()} ends those the moved
 * clock passed. Closing makes the releases due within the wait it is given, when due, and
 * leaves every other grant to its instant. One place for the template and the ShedLock
 * provider, which both hold grants back.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class HeldGrants implements AutoCloseable {

	/** How long closing waits for the releases due, unless told otherwise. */
	public static final Duration DEFAULT_CLOSE_WAIT = Duration.ofSeconds(30);

	// Longer waits are as good as forever, and keep the deadline's arithmetic in range.
	private static final Duration LONGEST_WAIT = Duration.ofDays(365);

	// Nanoseconds on the template's clock; only differences count.
	private final LongSupplier clock;

	private final Map<Pair, Hold> holding = new ConcurrentHashMap<>();

	private final Object lock = new Object();

	private @Nullable ScheduledThreadPoolExecutor scheduler;

	private boolean closed;

	private final Consumer<String> log;

	private final String owner;

	private final String threadName;

	/**
	 * Create an instance.
	 * @param clock nanoseconds on the owner's clock; only differences count
	 * @param log where a grant left to its instant is told of, at the level of
	 * information
	 * @param owner what holds the grants, as the log names it ("template")
	 * @param threadName the name of the scheduler's thread
	 */
	public HeldGrants(LongSupplier clock, Consumer<String> log, String owner, String threadName) {
		this.clock = clock;
		this.log = log;
		this.owner = owner;
		this.threadName = threadName;
	}

	/**
	 * A clock a test moves, read in nanoseconds from its first reading.
	 * @param clock the clock
	 * @return its nanoseconds
	 */
	public static LongSupplier nanos(InstantSource clock) {
		Instant origin = HostArguments.notNull(clock, "clock").instant();
		return () -> Duration.between(origin, clock.instant()).toNanos();
	}

	/**
	 * Read the owner's clock.
	 * @return nanoseconds; only differences count
	 */
	public long now() {
		return this.clock.getAsLong();
	}

	/**
	 * Keep the grant standing for its holder until the given time, then run the release,
	 * if any; without one, the hold only stops answering the grant as held.
	 * @param lease the grant
	 * @param holdAtLeast how long its work asked it held, for the log
	 * @param atNanos when the hold ends, on the owner's clock
	 * @param release releases the grant, or {@code null} to leave it to its instant
	 */
	public void hold(Lease lease, Duration holdAtLeast, long atNanos, @Nullable Runnable release) {
		Hold hold = new Hold(lease, holdAtLeast, atNanos, release);
		this.holding.put(hold.pair, hold);
		synchronized (this.lock) {
			if (!this.closed) {
				hold.timer = scheduler().schedule(() -> due(hold), Math.max(0, atNanos - now()), TimeUnit.NANOSECONDS);
				return;
			}
		}
		this.holding.remove(hold.pair, hold);
		hold.ended.complete(null);
		this.log.accept("The lease on key '" + lease.key() + "' was held at least " + holdAtLeast + " by a closed "
				+ this.owner + ": it ends at its instant " + lease.expiresAt());
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

	/**
	 * The clock was moved by hand: the holds it passed end now, on the caller's thread,
	 * rather than when the scheduler comes to them.
	 */
	public void clockMoved() {
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

	/**
	 * Return the end of the hold that keeps the holder's grant on the key standing after
	 * its work, if one does.
	 * @param key the key
	 * @param holder the holder
	 * @return completes when the hold ends, or {@code null}
	 */
	public @Nullable CompletableFuture<Void> standing(LeaseKey key, LeaseHolder holder) {
		Hold hold = this.holding.isEmpty() ? null : this.holding.get(new Pair(key, holder));
		return (hold != null) ? hold.ended : null;
	}

	private ScheduledThreadPoolExecutor scheduler() {
		if (this.scheduler == null) {
			ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1,
					HostThreads.factory(this.threadName + "-"));
			scheduler.setRemoveOnCancelPolicy(true);
			this.scheduler = scheduler;
		}
		return this.scheduler;
	}

	/**
	 * Make each release due within the wait when due, and leave the others to their
	 * instants. Releasing a held grant before its hold ends would let another instance
	 * run the same work again, which is what the hold is for; dropping one due soon would
	 * keep the other instances out until its instant.
	 * @param wait how long to wait for the releases due
	 */
	public void close(Duration wait) {
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
			this.log.accept("The lease on key '" + hold.lease.key() + "' held at least " + hold.holdAtLeast
					+ " was not released on close within " + wait + ": it ends at its instant "
					+ hold.lease.expiresAt());
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
		close(DEFAULT_CLOSE_WAIT);
	}

	private record Pair(LeaseKey key, LeaseHolder holder) {

	}

	/**
	 * A grant kept standing after its work until {@code atNanos} on the owner's clock.
	 */
	private static final class Hold {

		final Pair pair;

		final Lease lease;

		final Duration holdAtLeast;

		final long atNanos;

		final @Nullable Runnable release;

		final CompletableFuture<Void> ended = new CompletableFuture<>();

		final AtomicBoolean ending = new AtomicBoolean();

		volatile @Nullable ScheduledFuture<?> timer;

		Hold(Lease lease, Duration holdAtLeast, long atNanos, @Nullable Runnable release) {
			this.pair = new Pair(lease.key(), lease.holder());
			this.lease = lease;
			this.holdAtLeast = holdAtLeast;
			this.atNanos = atNanos;
			this.release = release;
		}

	}

}
