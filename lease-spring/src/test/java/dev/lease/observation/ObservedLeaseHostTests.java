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

package dev.lease.observation;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ObservedLeaseHost}.
 *
 * @author Lease contributors
 */
class ObservedLeaseHostTests {

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final List<String> observed = new CopyOnWriteArrayList<>();

	private final ObservedLeaseHost host = new ObservedLeaseHost(new InMemoryLeaseHost(), "memory", this.meters,
			observations());

	@Test
	void takeAndReleaseAreMeteredByModeAndOutcome() throws InterruptedException {
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder holder = LeaseHolder.of(fresh());
		assertThat(this.host.take(key, holder, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
		assertThat(this.meters.get("lease.active").tag("host", "memory").gauge().value()).isEqualTo(1.0);
		assertThat(this.host.release(key, holder)).isInstanceOf(Released.class);
		assertThat(this.meters.get("lease.take")
			.tags("host", "memory", "mode", "take", "outcome", "taken")
			.timer()
			.count()).isEqualTo(1);
		assertThat(this.meters.get("lease.release").tags("host", "memory", "outcome", "released").counter().count())
			.isEqualTo(1.0);
		assertThat(this.meters.get("lease.active").gauge().value()).isZero();
	}

	@Test
	@DisplayName("Operation 7: a try take on a held key is metered with outcome held")
	void tryTakeOnHeldKeyIsMeteredAsHeld() {
		LeaseKey key = LeaseKey.of(fresh());
		this.host.tryTake(key, LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		assertThat(this.host.tryTake(key, LeaseHolder.of(fresh()), Duration.ofSeconds(30))).isInstanceOf(Held.class);
		assertThat(this.meters.get("lease.take").tags("mode", "try_take", "outcome", "held").timer().count())
			.isEqualTo(1);
		assertThat(this.meters.get("lease.take").tags("mode", "try_take", "outcome", "taken").timer().count())
			.isEqualTo(1);
	}

	@Test
	@DisplayName("Operation 12, Non-goal 11: a release answered NotHeld after the grant passed counts an overrun")
	void releaseAfterTheGrantPassedCountsAnOverrun() {
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder holder = LeaseHolder.of(fresh());
		this.host.tryTake(key, holder, Duration.ofMillis(50));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.host.remaining(key, holder).isEmpty());
		assertThat(this.host.release(key, holder)).isInstanceOf(NotHeld.class);
		assertThat(this.meters.get("lease.overrun").counter().count()).isEqualTo(1.0);
		assertThat(this.meters.get("lease.release").tags("outcome", "not_held").counter().count()).isEqualTo(1.0);
		assertThat(this.meters.get("lease.active").gauge().value()).isZero();
	}

	@Test
	@DisplayName("Operation 14: a release by a party that never held is NotHeld, but no overrun")
	void releaseByANonHolderIsNotAnOverrun() {
		assertThat(this.host.release(LeaseKey.of(fresh()), LeaseHolder.of(fresh()))).isInstanceOf(NotHeld.class);
		assertThat(this.meters.get("lease.overrun").counter().count()).isZero();
	}

	@Test
	void noMeterIsTaggedWithKeyOrHolder() {
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder holder = LeaseHolder.of(fresh());
		this.host.tryTake(key, holder, Duration.ofSeconds(30));
		this.host.release(key, holder);
		assertThat(this.meters.getMeters()).flatMap((meter) -> meter.getId().getTags())
			.allSatisfy((tag) -> assertThat(tag.getKey()).isIn("host", "mode", "outcome"));
		assertThat(this.meters.getMeters()).extracting(Meter::getId)
			.extracting(Meter.Id::getName)
			.containsOnly("lease.take", "lease.release", "lease.overrun", "lease.active");
	}

	@Test
	void takeAndReleaseAreObserved() {
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder holder = LeaseHolder.of(fresh());
		this.host.tryTake(key, holder, Duration.ofSeconds(30));
		this.host.release(key, holder);
		assertThat(this.observed).containsExactly("lease.host.take try_take taken", "lease.host.release released");
	}

	private ObservationRegistry observations() {
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

			@Override
			public void onStop(Observation.Context context) {
				String mode = (context.getLowCardinalityKeyValue("lease.mode") != null)
						? context.getLowCardinalityKeyValue("lease.mode").getValue() + " " : "";
				ObservedLeaseHostTests.this.observed.add(
						context.getName() + " " + mode + context.getLowCardinalityKeyValue("lease.outcome").getValue());
			}

		});
		return registry;
	}

	private static String fresh() {
		return UUID.randomUUID().toString();
	}

}
