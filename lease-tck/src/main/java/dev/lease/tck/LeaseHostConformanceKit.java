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

package dev.lease.tck;

import java.time.Duration;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;

/**
 * The definition of a correct {@link LeaseHost}: every Check 1.1 to 6.2 of the lease
 * atom, Operations 1 to 14, arrival order, handoff to waiters, byte identity, bad input,
 * interruption, the operators' reads, a concurrency stress test and an overlap race on a
 * machine whose cores are kept busy, each test named after the rule it proves. A host
 * runs the kit by extending it and supplying the host:
 *
 * <pre class="code">
 * class InMemoryLeaseHostConformanceTests extends LeaseHostConformanceKit {
 *
 *     private static final LeaseHost HOST = new InMemoryLeaseHost();
 *
 *     &#64;Override
 *     protected LeaseHost host() {
 *         return HOST;
 *     }
 *
 * }
 * </pre>
 *
 * Every test uses fresh random keys and holders, so one host may serve the whole kit.
 * Tests run in real time; tolerances only widen upper bounds, and a rule of the form "not
 * earlier than" is checked on the host's own instants.
 * <p>
 * With JUnit Jupiter's parallel execution enabled, the groups that measure no time run
 * concurrently, and each group that measures time runs alone, its tests one after
 * another, so that no timing check shares the machine with another group. Before its
 * first test the kit makes one untimed take that waits, so that what a host does once in
 * a JVM (loading classes, opening a pool or a listening connection) is not timed.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public abstract class LeaseHostConformanceKit {

	// Held for reading by the groups that measure no time, and for writing by each group
	// that measures time, so that a timing group runs alone.
	static final String TIMING = "dev.lease.tck.timing";

	private static final Set<LeaseHost> WARMED = Collections.newSetFromMap(new WeakHashMap<>());

	/**
	 * Return the host under test; may be the same instance for every test.
	 * @return the host
	 */
	protected abstract LeaseHost host();

	/**
	 * Return how much later than the rule's instant an answer may arrive on a loaded
	 * machine: scheduling, round trips, polling. Widens upper bounds only.
	 * @return the tolerance
	 */
	protected Duration tolerance() {
		return Duration.ofSeconds(2);
	}

	/**
	 * Let the given time pass on the host's clock. Waits in real time; a host with an
	 * injected clock may advance it instead.
	 * @param duration the time to let pass
	 * @throws InterruptedException if interrupted while waiting
	 */
	protected void elapse(Duration duration) throws InterruptedException {
		Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);
	}

	/**
	 * Return the finest step of a term the host represents: a duration that is not a
	 * whole number of steps is refused. One nanosecond unless the host says otherwise.
	 * @return the host's resolution
	 */
	protected Duration resolution() {
		return Duration.ofNanos(1);
	}

	/**
	 * Return the most the host's clock may differ from this JVM's; histories compare host
	 * instants with JVM readings only across it.
	 * @return the clock skew
	 */
	protected Duration clockSkew() {
		return Duration.ofMillis(10);
	}

	/**
	 * Wait until a take of the given holder, started on another thread, waits for the key
	 * in the host's queue. The default asks the host itself: a holder that waits for a
	 * key is refused a try take (Non-goal 1). A host with a cheaper way to see its queue
	 * may override.
	 * @param key the key taken
	 * @param holder the waiting holder
	 * @throws InterruptedException if interrupted while waiting
	 */
	protected void awaitQueued(LeaseKey key, LeaseHolder holder) throws InterruptedException {
		Arrivals.awaitQueued(host(), key, holder, tolerance());
	}

	/**
	 * Return whether the host answers {@link LeaseHost#waiting(LeaseKey)}: a host that
	 * cannot tell how many wait answers empty for every key, and says so here.
	 * @return whether the host counts the takes waiting for a key
	 */
	protected boolean countsWaiting() {
		return true;
	}

	/**
	 * Return whether the host keeps when each waiting take arrived, and answers it as
	 * {@link dev.lease.QueuedTakes#since()}. A host that does not answers no
	 * {@code since}; an answer it gives is checked either way.
	 * @return whether the host answers when the longest-waiting take arrived
	 */
	protected boolean keepsArrivals() {
		return false;
	}

	/**
	 * Return whether the host keeps when each grant began, and answers it from
	 * {@link dev.lease.LeaseHost#grantedAt(dev.lease.Lease)} and in its listing's pages.
	 * A host that does not answers none; an answer it gives is checked either way.
	 * @return whether the host answers when its grants began
	 */
	protected boolean keepsGrantStarts() {
		return false;
	}

	// Once per host: a take that waits and is handed the key at a release, and one handed
	// the key as the holder's term passes, neither timed.
	final void warmUp() throws Exception {
		LeaseHost host = host();
		synchronized (WARMED) {
			if (WARMED.contains(host)) {
				return;
			}
			Arrivals.warmUp(this);
			WARMED.add(host);
		}
	}

	// Each group is named after its checks with "Group", never after a type of the API
	// (Fence) or of the host kit (Handoff), so that a name in a test report means one
	// thing; the display name is what a report shows.
	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(TIMING)
	@DisplayName("Take")
	class TakeGroup extends TakeChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(TIMING)
	@DisplayName("Waiters")
	class WaiterGroup extends WaiterChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(TIMING)
	@DisplayName("Handoff")
	class HandoffGroup extends HandoffChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(TIMING)
	@DisplayName("Try Take")
	class TryTakeGroup extends TryTakeChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(TIMING)
	@DisplayName("Remaining")
	class RemainingGroup extends RemainingChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(value = TIMING, mode = ResourceAccessMode.READ)
	@DisplayName("Grants")
	class GrantsGroup extends GrantsChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(TIMING)
	@DisplayName("Waiting")
	class WaitingGroup extends WaitingChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(value = TIMING, mode = ResourceAccessMode.READ)
	@DisplayName("Release")
	class ReleaseGroup extends ReleaseChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(TIMING)
	@DisplayName("Expiry")
	class ExpiryGroup extends ExpiryChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(value = TIMING, mode = ResourceAccessMode.READ)
	@DisplayName("Identity")
	class IdentityGroup extends IdentityChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(value = TIMING, mode = ResourceAccessMode.READ)
	@DisplayName("Arguments")
	class ArgumentGroup extends ArgumentChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(value = TIMING, mode = ResourceAccessMode.READ)
	@DisplayName("Fence")
	class FenceGroup extends FenceChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(TIMING)
	@DisplayName("History")
	class HistoryGroup extends HistoryChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(TIMING)
	@DisplayName("Interruption")
	class InterruptGroup extends InterruptChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(TIMING)
	@DisplayName("Concurrency")
	class ConcurrencyGroup extends ConcurrencyChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@Execution(ExecutionMode.CONCURRENT)
	@ResourceLock(TIMING)
	@DisplayName("Load")
	class LoadGroup extends LoadChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

}
