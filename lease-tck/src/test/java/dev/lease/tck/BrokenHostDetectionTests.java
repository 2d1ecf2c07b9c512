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

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import dev.lease.LeaseHost;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.tck.history.LeaseHostScheduleProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeaseHostConformanceKit} itself: run against hosts that each break one
 * rule, the kit must fail the test that names that rule. The broken hosts are run side by
 * side: each breaks its rule on every run, whatever else runs. The correct host runs
 * alone, as its timing checks would in the kit.
 *
 * @author Lease contributors
 */
@Execution(ExecutionMode.CONCURRENT)
class BrokenHostDetectionTests {

	private static final String KITS = "dev.lease.tck.BrokenHostDetectionTests.kits";

	@Test
	@ResourceLock(value = KITS, mode = ResourceAccessMode.READ)
	@DisplayName("The kit catches a host whose re-take moves the grant's instant (Non-goal 1, 2)")
	void catchesReTakeThatExtends() {
		assertThat(failuresOf(ReTakeExtendsKit.class, LeaseHostConformanceKit.TryTakeGroup.class))
			.anyMatch((name) -> name.startsWith("Non-goal 1, 2"));
	}

	@Test
	@ResourceLock(value = KITS, mode = ResourceAccessMode.READ)
	@DisplayName("The kit catches a host that frees a key 50 ms before its instant (Check 2.2)")
	void catchesEarlyFreeing() {
		assertThat(failuresOf(FreesEarlyKit.class, LeaseHostConformanceKit.ExpiryGroup.class))
			.anyMatch((name) -> name.startsWith("Check 2.2"));
	}

	@Test
	@ResourceLock(value = KITS, mode = ResourceAccessMode.READ)
	@DisplayName("The kit catches a host whose waiters wait beyond their arrival term (Check 4.2)")
	void catchesUnboundedWaiting() {
		assertThat(failuresOf(WaitsWithoutBoundKit.class, LeaseHostConformanceKit.WaiterGroup.class))
			.anyMatch((name) -> name.startsWith("Check 4.2"));
	}

	@Test
	@ResourceLock(value = KITS, mode = ResourceAccessMode.READ)
	@DisplayName("The kit catches a host that admits waiters last in, first out (Non-goal 3)")
	void catchesLastInFirstOut() {
		assertThat(failuresOf(AdmitsLastArrivalFirstKit.class, LeaseHostConformanceKit.WaiterGroup.class))
			.anyMatch((name) -> name.startsWith("Non-goal 3: five staggered waiters"));
	}

	@Test
	@ResourceLock(value = KITS, mode = ResourceAccessMode.READ)
	@DisplayName("The kit catches a host that lets anyone release a grant (Operation 13)")
	void catchesReleaseByAnyone() {
		assertThat(failuresOf(ReleasesForAnyoneKit.class, LeaseHostConformanceKit.ReleaseGroup.class))
			.anyMatch((name) -> name.startsWith("Operation 13"));
	}

	// Beside the others like them: the host leaves a ghost for every take the kit sees
	// end at an interrupt, so how many calls a busy machine lets the kit's workers make
	// does not decide whether there is one to catch.
	@Test
	@ResourceLock(value = KITS, mode = ResourceAccessMode.READ)
	@DisplayName("The kit catches a host whose interrupted take is granted while the caller gets a host failure (Host: interruption)")
	void catchesGhostGrantOnInterrupt() {
		assertThat(failuresOf(GhostOnInterruptKit.class, LeaseHostConformanceKit.InterruptGroup.class))
			.anyMatch((name) -> name.startsWith("Operation 11, Invariant 1, Host: interruption"));
	}

	@Test
	@ResourceLock(value = KITS, mode = ResourceAccessMode.READ)
	@DisplayName("The kit catches a host that counts every take that ever waited, not those that wait now (Waiting 1)")
	void catchesCountOfArrivals() {
		assertThat(failuresOf(CountsArrivalsKit.class, LeaseHostConformanceKit.WaitingGroup.class))
			.anyMatch((name) -> name.startsWith("Waiting 1"));
	}

	@Test
	@ResourceLock(KITS)
	@DisplayName("The kit passes the correct host it forwards to, so every failure above is the broken rule's")
	void passesTheCorrectHost() {
		assertThat(failuresOf(CorrectKit.class, LeaseHostConformanceKit.WaiterGroup.class)).isEmpty();
		assertThat(failuresOf(CorrectKit.class, LeaseHostConformanceKit.InterruptGroup.class)).isEmpty();
		assertThat(failuresOf(CorrectKit.class, LeaseHostConformanceKit.WaitingGroup.class)).isEmpty();
	}

	@Test
	@ResourceLock(value = KITS, mode = ResourceAccessMode.READ)
	@DisplayName("The schedule property catches a host that frees a key 50 ms before its instant (Invariant 2.2, Fence 1)")
	void schedulePropertyCatchesEarlyFreeing() {
		Map<String, String> failures = failures(DiscoverySelectors.selectClass(FreesEarlySchedules.class));
		assertThat(failures).hasSize(1);
		assertThat(failures.values()).allMatch((failure) -> failure.contains("The history breaks the lease atom")
				&& (failure.contains("Fence 1") || failure.contains("Invariant 1.2")));
	}

	private static List<String> failuresOf(Class<? extends LeaseHostConformanceKit> kit, Class<?> group) {
		return List.copyOf(failures(DiscoverySelectors.selectNestedClass(List.of(kit), group)).keySet());
	}

	// The display name and failure of every test that did not succeed.
	private static Map<String, String> failures(DiscoverySelector selector) {
		LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selector).build();
		Map<String, String> failed = new ConcurrentHashMap<>();
		Launcher launcher = LauncherFactory.create();
		launcher.execute(request, new TestExecutionListener() {

			@Override
			public void executionFinished(TestIdentifier test, TestExecutionResult result) {
				if (test.isTest() && result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
					failed.put(test.getDisplayName(), result.getThrowable().map(String::valueOf).orElse(""));
				}
			}

		});
		return failed;
	}

	static class BrokenKit extends LeaseHostConformanceKit {

		private final LeaseHost host;

		BrokenKit(Supplier<LeaseHost> host) {
			this.host = host.get();
		}

		@Override
		protected LeaseHost host() {
			return this.host;
		}

	}

	static class ReTakeExtendsKit extends BrokenKit {

		ReTakeExtendsKit() {
			super(BrokenHosts::reTakeExtends);
		}

	}

	static class FreesEarlyKit extends BrokenKit {

		FreesEarlyKit() {
			super(BrokenHosts::freesEarly);
		}

	}

	static class WaitsWithoutBoundKit extends BrokenKit {

		WaitsWithoutBoundKit() {
			super(BrokenHosts::waitsWithoutBound);
		}

	}

	static class AdmitsLastArrivalFirstKit extends BrokenKit {

		AdmitsLastArrivalFirstKit() {
			super(BrokenHosts::admitsLastArrivalFirst);
		}

	}

	static class ReleasesForAnyoneKit extends BrokenKit {

		ReleasesForAnyoneKit() {
			super(BrokenHosts::releasesForAnyone);
		}

	}

	static class GhostOnInterruptKit extends BrokenKit {

		GhostOnInterruptKit() {
			super(BrokenHosts::ghostOnInterrupt);
		}

	}

	static class CountsArrivalsKit extends BrokenKit {

		CountsArrivalsKit() {
			super(BrokenHosts::countsArrivals);
		}

	}

	static class FreesEarlySchedules extends LeaseHostScheduleProperties {

		private final LeaseHost host = BrokenHosts.freesEarly();

		@Override
		protected LeaseHost host() {
			return this.host;
		}

	}

	static class CorrectKit extends BrokenKit {

		CorrectKit() {
			super(() -> new ForwardingLeaseHost(new InMemoryLeaseHost()));
		}

	}

}
