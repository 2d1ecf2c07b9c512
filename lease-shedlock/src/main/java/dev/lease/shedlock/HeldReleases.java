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

import net.javacrumbs.shedlock.core.LockConfiguration;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.lease.Lease;
import dev.lease.LeaseHost;
import dev.lease.NotHeld;
import dev.lease.ReleaseResult;
import dev.lease.host.HeldGrants;

/**
 * How a {@link LeaseLockProvider}'s grants end: released at once, released later when
 * {@code lockAtLeastFor} holds the release back ({@link HeldGrants}, which the template's
 * holds share), or left to end at their instant. Closing makes the releases due within
 * the wait it is given, at their due times, and leaves the others to their instants.
 *
 * @author Lease contributors
 */
final class HeldReleases {

	private static final Log logger = LogFactory.getLog(LeaseLockProvider.class);

	private final LeaseHost host;

	private final HeldGrants held = new HeldGrants(System::nanoTime, logger::info, "provider",
			"lease-shedlock-release");

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

	// Releases the grant at 'dueNanos' (System.nanoTime()) on a daemon thread; the caller
	// returns at once. Blocking instead would hold a thread of the task scheduler, which
	// has one by default, and delay every other task for the hold.
	void releaseAt(Lease lease, LockConfiguration configuration, long dueNanos) {
		this.held.hold(lease, configuration.getLockAtLeastFor(), dueNanos, () -> {
			if (release(lease, configuration) instanceof NotHeld) {
				logger.warn("The release of the lease on key '" + lease.key() + "' held at least "
						+ configuration.getLockAtLeastFor() + " came after its instant " + lease.expiresAt()
						+ ", which had ended the grant");
			}
		});
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

	void close(Duration wait) {
		this.held.close(wait);
	}

}
