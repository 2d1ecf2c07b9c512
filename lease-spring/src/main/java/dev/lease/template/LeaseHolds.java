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
 * passed.
 *
 * @author Lease contributors
 */
final class LeaseHolds implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeaseTemplate.class);

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

	/**
	 * Stop keeping grants: the releases still waiting are not made, and each of those
	 * grants ends at its instant. Releasing them early instead would let another instance
	 * run the same tick again, which is what the hold is for.
	 */
	@Override
	public void close() {
		int left;
		synchronized (this.lock) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			left = (this.scheduler != null) ? this.scheduler.shutdownNow().size() : 0;
		}
		this.holding.values().forEach((hold) -> hold.ended.complete(null));
		this.holding.clear();
		if (left > 0) {
			logger.info(left + " lease(s) held at least a while after their work were not released on close:"
					+ " each ends at its instant");
		}
	}

	private record Pair(LeaseKey key, LeaseHolder holder) {

	}

	/**
	 * A grant kept standing after its work until {@code atNanos} on the template's clock.
	 */
	private static final class Hold {

		final Pair pair;

		final long atNanos;

		final @Nullable Runnable release;

		final CompletableFuture<Void> ended = new CompletableFuture<>();

		final AtomicBoolean ending = new AtomicBoolean();

		volatile @Nullable ScheduledFuture<?> timer;

		Hold(HeldLease held, long atNanos, @Nullable Runnable release) {
			this.pair = new Pair(held.lease().key(), held.lease().holder());
			this.atNanos = atNanos;
			this.release = release;
		}

	}

}
