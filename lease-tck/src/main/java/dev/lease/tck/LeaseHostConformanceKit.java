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

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;

import dev.lease.LeaseHost;

/**
 * The definition of a correct {@link LeaseHost}: every Check 1.1 to 6.2 of the lease
 * atom, Operations 1 to 14, arrival order, handoff to waiters, byte identity, bad input,
 * interruption, a concurrency stress test and an overlap race on a machine whose cores
 * are kept busy, each test named after the rule it proves. A host runs the kit by
 * extending it and supplying the host:
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
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public abstract class LeaseHostConformanceKit {

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

	// Each group is named after its checks with "Group", never after a type of the API
	// (Fence) or of the host kit (Handoff), so that a name in a test report means one
	// thing; the display name is what a report shows.
	@Nested
	@DisplayName("Take")
	class TakeGroup extends TakeChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("Waiters")
	class WaiterGroup extends WaiterChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("Handoff")
	class HandoffGroup extends HandoffChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("Try Take")
	class TryTakeGroup extends TryTakeChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("Remaining")
	class RemainingGroup extends RemainingChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("Grants")
	class GrantsGroup extends GrantsChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("Release")
	class ReleaseGroup extends ReleaseChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("Expiry")
	class ExpiryGroup extends ExpiryChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("Identity")
	class IdentityGroup extends IdentityChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("Arguments")
	class ArgumentGroup extends ArgumentChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("Fence")
	class FenceGroup extends FenceChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("History")
	class HistoryGroup extends HistoryChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("Interruption")
	class InterruptGroup extends InterruptChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("Concurrency")
	class ConcurrencyGroup extends ConcurrencyChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

	@Nested
	@DisplayName("Load")
	class LoadGroup extends LoadChecks {

		@Override
		LeaseHostConformanceKit kit() {
			return LeaseHostConformanceKit.this;
		}

	}

}
