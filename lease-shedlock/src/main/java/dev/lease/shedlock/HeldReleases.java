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

package dev.lease.shedlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import net.javacrumbs.shedlock.core.LockConfiguration;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.lease.Lease;
import dev.lease.LeaseHost;
import dev.lease.NotHeld;
import dev.lease.ReleaseResult;

/**
 * How a {@link LeaseLockProvider}'s grants end: released at once, released later by a
 * small daemon scheduler when {@code lockAtLeastFor} holds the release back, or left to
 * end at their instant. Closing makes the releases due within the wait it is given, at
 * their due times, and leaves the others to their instants.
 *
 * @author Lease contributors
 */
final class HeldReleases {

	private static final Log logger = LogFactory.getLog(LeaseLockProvider.class);

	// Longer waits are as good as forever, and keep the deadline's arithmetic in range.
	private static final Duration LONGEST_WAIT = Duration.ofDays(365);

	private final LeaseHost host;

	private final Set<Hold> holding = ConcurrentHashMap.newKeySet();

	private final Object lock = new Object();

	private @Nullable ScheduledThreadPoolExecutor scheduler;

	private boolean closed;

	HeldReleases(LeaseHost host) {
		this.host = host;
	}

	// The task completed and its grant is old enough: a NotHeld now means the task
	// outran lockAtMostFor, and the instant had already ended the grant (Non-goal 11).
	void releaseNow(Lease lease, LockConfiguration configuration) {
		if (release(lease, configuration) instanceof NotHeld) {
			logger.warn("Task '" + configuration.getName() + "' outran its lock: the lease on key '" + lease.key()
					+ "' ended at " + lease.expiresAt()
					+ " before the task completed. Choose a lockAtMostFor longer than "
					+ configuration.getLockAtMostFor() + ", or shorter work");
		}
	}

	void leaveToInstant(Lease lease, LockConfiguration configuration) {
		if (logger.isDebugEnabled()) {
			logger.debug("Task '" + configuration.getName() + "' is held at least " + configuration.getLockAtLeastFor()
					+ ": the lease on key '" + lease.key() + "' ends at its instant " + lease.expiresAt());
		}
	}

	// Releases the grant at 'dueNanos' on a daemon thread; the caller returns at once.
	// Blocking instead would hold a thread of the task scheduler, which has one by
	// default, and delay every other task for the hold.
	void releaseAt(Lease lease, LockConfiguration configuration, long dueNanos) {
		Hold hold = new Hold(lease, configuration, dueNanos);
		Runnable end = () -> {
			try {
				if (release(lease, configuration) instanceof NotHeld) {
					logger.warn("The release of the lease on key '" + lease.key() + "' held at least "
							+ configuration.getLockAtLeastFor() + " came after its instant " + lease.expiresAt()
							+ ", which had ended the grant");
				}
			}
			finally {
				this.holding.remove(hold);
			}
		};
		synchronized (this.lock) {
			if (!this.closed) {
				this.holding.add(hold);
				hold.task = scheduler().schedule(end, Math.max(0, dueNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
				return;
			}
		}
		logger.info("The lease on key '" + lease.key() + "' was held at least " + configuration.getLockAtLeastFor()
				+ " by a closed provider: it ends at its instant " + lease.expiresAt());
	}

	// A host failure is logged, not thrown: the grant then ends at its instant, and the
	// task that ran under it has completed.
	private @Nullable ReleaseResult release(Lease lease, LockConfiguration configuration) {
		try {
			return this.host.release(lease.key(), lease.holder());
		}
		catch (RuntimeException ex) {
			logger.warn("Release of the lease on key '" + lease.key() + "' after task '" + configuration.getName()
					+ "' failed; the grant ends at its instant " + lease.expiresAt(), ex);
			return null;
		}
	}

	private ScheduledThreadPoolExecutor scheduler() {
		if (this.scheduler == null) {
			AtomicInteger threads = new AtomicInteger();
			ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, (task) -> {
				Thread thread = new Thread(task, "lease-shedlock-release-" + threads.incrementAndGet());
				thread.setDaemon(true);
				return thread;
			});
			scheduler.setRemoveOnCancelPolicy(true);
			this.scheduler = scheduler;
		}
		return this.scheduler;
	}

	// Releasing a held grant before lockAtLeastFor has passed would let another instance
	// run the same task again, which is what lockAtLeastFor is for; dropping one due soon
	// would keep the other instances out until its instant. So each release due within
	// the wait is made when due, and only the others are left to their instants.
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
			for (Hold hold : this.holding) {
				if (hold.dueNanos - deadline > 0) {
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
			this.holding.forEach((hold) -> drop(hold, left));
		}
		for (Hold hold : left) {
			logger.info("The lease on key '" + hold.lease.key() + "' held at least "
					+ hold.configuration.getLockAtLeastFor() + " was not released on close within " + wait
					+ ": it ends at its instant " + hold.lease.expiresAt());
		}
	}

	// A release already under way is left to finish and is not counted.
	private void drop(Hold hold, List<Hold> left) {
		ScheduledFuture<?> task = hold.task;
		if (task != null && task.cancel(false)) {
			this.holding.remove(hold);
			left.add(hold);
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

	private static final class Hold {

		private final Lease lease;

		private final LockConfiguration configuration;

		private final long dueNanos;

		private volatile @Nullable ScheduledFuture<?> task;

		Hold(Lease lease, LockConfiguration configuration, long dueNanos) {
			this.lease = lease;
			this.configuration = configuration;
			this.dueNanos = dueNanos;
		}

	}

}
