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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;

/**
 * The grants a {@link LeaseTemplate} keeps standing after their work: each until its hold
 * ends, when one small daemon scheduler releases it, or, when its instant is left to end
 * it, until that instant. Closing makes the releases due within the bound it is given, at
 * their due times, and leaves every other grant to its instant.
 *
 * @author Lease contributors
 */
final class HeldReleases {

	private static final Log logger = LogFactory.getLog(LeaseTemplate.class);

	// Longer waits are as good as forever, and keep the deadline's arithmetic in range.
	private static final Duration LONGEST_WAIT = Duration.ofDays(365);

	private final Map<Pair, Hold> holding = new ConcurrentHashMap<>();

	private final Object lock = new Object();

	private @Nullable ScheduledThreadPoolExecutor scheduler;

	private boolean closed;

	// Keeps the grant standing for its holder until 'atNanos', then runs the release, or
	// with none only stops answering it as held (its instant ends it).
	void keep(HeldLease held, long atNanos, @Nullable Runnable release) {
		Pair pair = new Pair(held.lease().key(), held.lease().holder());
		Hold hold = new Hold(held, atNanos, release != null);
		Runnable end = () -> {
			try {
				if (release != null) {
					release.run();
				}
			}
			finally {
				this.holding.remove(pair, hold);
				hold.ended.complete(null);
			}
		};
		synchronized (this.lock) {
			if (!this.closed) {
				this.holding.put(pair, hold);
				hold.task = scheduler().schedule(end, Math.max(0, atNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
				return;
			}
		}
		logger.info("The lease on key '" + held.lease().key() + "' was held at least " + held.request().holdAtLeast()
				+ " by a closed template: it ends at its instant " + held.lease().expiresAt());
	}

	// The end of the hold that keeps the holder's grant on the key standing after its
	// work, if one does.
	@Nullable CompletableFuture<Void> standing(LeaseKey key, LeaseHolder holder) {
		@Nullable Hold hold = this.holding.isEmpty() ? null : this.holding.get(new Pair(key, holder));
		return (hold != null) ? hold.ended : null;
	}

	// Releasing a held grant before its hold ends would let another instance run the same
	// work again, which is what the hold is for; dropping one due soon would keep the
	// other instances out until its instant. So each release due within the bound is
	// made when due, and only the others are left to their instants.
	void close(Duration wait) {
		long deadline = System.nanoTime() + ((wait.compareTo(LONGEST_WAIT) < 0) ? wait : LONGEST_WAIT).toNanos();
		List<Hold> left = new ArrayList<>();
		ScheduledThreadPoolExecutor scheduler;
		synchronized (this.lock) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			scheduler = this.scheduler;
			for (Hold hold : this.holding.values()) {
				if (!hold.release || hold.atNanos - deadline > 0) {
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
			this.holding.values().forEach((hold) -> drop(hold, left));
		}
		for (Hold hold : left) {
			logger.info("The lease on key '" + hold.held.lease().key() + "' held at least "
					+ hold.held.request().holdAtLeast() + " was not released on close within " + wait
					+ ": it ends at its instant " + hold.held.lease().expiresAt());
		}
	}

	// A task already running (a release under way) is left to finish and is not counted.
	private void drop(Hold hold, List<Hold> left) {
		ScheduledFuture<?> task = hold.task;
		if (task != null && task.cancel(false)) {
			this.holding.values().remove(hold);
			hold.ended.complete(null);
			if (hold.release) {
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

	private static final class Hold {

		private final HeldLease held;

		private final long atNanos;

		private final boolean release;

		private final CompletableFuture<Void> ended = new CompletableFuture<>();

		private volatile @Nullable ScheduledFuture<?> task;

		Hold(HeldLease held, long atNanos, boolean release) {
			this.held = held;
			this.atNanos = atNanos;
			this.release = release;
		}

	}

	private record Pair(LeaseKey key, LeaseHolder holder) {

	}

}
