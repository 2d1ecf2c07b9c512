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

package dev.lease.autoconfigure.observation;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.actuate.endpoint.LeasesEndpoint;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeasedJobs;
import dev.lease.autoconfigure.LeasesEndpointAutoConfiguration;
import dev.lease.autoconfigure.health.LeaseHostHealthContributorAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.health.LeaseHostHealthIndicator;
import dev.lease.observation.DefaultLeaseObservationConvention;
import dev.lease.observation.LeaseObservationContext;
import dev.lease.observation.LeaseObservationConvention;
import dev.lease.observation.LeaseObservationDocumentation;
import dev.lease.template.LeaseRequest;
import dev.lease.template.LeaseTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that every call on the auto-configured lease host is observed exactly once, with
 * the meter and observation registries wired as Spring Boot wires them: Boot's
 * {@code DefaultMeterObservationHandler} makes the one timer of each operation.
 *
 * @author Lease contributors
 */
class LeaseObservationBootWiringTests {

	// The tag keys of every lease timer: the convention's low-cardinality keys and the
	// error key Boot's meter handler adds.
	private static final String KEYS = "[error, lease.host, lease.outcome]";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
				LeaseAutoConfiguration.class, InMemoryLeaseHostAutoConfiguration.class,
				LeaseObservationAutoConfiguration.class, LeasesEndpointAutoConfiguration.class,
				LeaseHostHealthContributorAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=leases", "lease.host=memory")
		.withBean(LeasedJobs.class);

	@Test
	void callsOnTheInjectedLeaseHostAreObservedOnce() {
		this.runner.run((context) -> {
			LeaseHost host = context.getBean(LeaseHost.class);
			LeaseKey key = LeaseKey.of(fresh());
			LeaseHolder holder = LeaseHolder.of(fresh());
			host.tryTake(key, holder, Duration.ofSeconds(30));
			host.release(key, holder);
			assertThat(timers(context.getBean(MeterRegistry.class)))
				.containsExactlyInAnyOrder("lease.try.take " + KEYS + " x1", "lease.release " + KEYS + " x1");
		});
	}

	@Test
	void templateAndLeasedCallsRecordOneTimerPerOperation() {
		this.runner.run((context) -> {
			context.getBean(LeaseTemplate.class).run(LeaseRequest.of(fresh(), Duration.ofSeconds(30)), (lease) -> {
			});
			// takes under @Leased, and lists the grants through the injected host
			context.getBean(LeasedJobs.class).standing(fresh());
			assertThat(timers(context.getBean(MeterRegistry.class))).containsExactlyInAnyOrder(
					"lease.take " + KEYS + " x2", "lease.release " + KEYS + " x2", "lease.grants " + KEYS + " x1");
		});
	}

	@Test
	void endpointAndHealthCallsAreObserved() {
		this.runner.run((context) -> {
			context.getBean(LeasesEndpoint.class).leases(SecurityContext.NONE, null, null);
			context.getBean(LeaseHostHealthIndicator.class).health();
			assertThat(timers(context.getBean(MeterRegistry.class)))
				.containsExactlyInAnyOrder("lease.grants " + KEYS + " x1", "lease.remaining " + KEYS + " x1");
		});
	}

	@Test
	void everyLeaseMeterHasOneNameAndOneSetOfTagKeys() {
		this.runner.run((context) -> {
			LeaseHost host = context.getBean(LeaseHost.class);
			LeaseKey key = LeaseKey.of(fresh());
			host.tryTake(key, LeaseHolder.of(fresh()), Duration.ofSeconds(30));
			host.tryTake(key, LeaseHolder.of(fresh()), Duration.ofSeconds(30));
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.getMeters()).extracting((meter) -> meter.getId().getName())
				.containsOnly("lease.try.take", "lease.try.take.active", "lease.active", "lease.overrun",
						"lease.waiting", "lease.waiting.oldest", "lease.held");
			// taken and held: two series of one timer, with the same keys
			assertThat(timers(meters)).containsExactlyInAnyOrder("lease.try.take " + KEYS + " x1",
					"lease.try.take " + KEYS + " x1");
			assertThat(meters.get("lease.try.take").timers())
				.extracting((timer) -> timer.getId().getTag("lease.outcome"))
				.containsExactlyInAnyOrder("taken", "held");
			assertThat(meters.get("lease.active").gauge().getId().getTags()).extracting((tag) -> tag.getKey())
				.containsExactly("lease.host");
		});
	}

	@Test
	void aConventionBeanReplacesTheDefaultConvention() {
		this.runner.withUserConfiguration(ConventionConfiguration.class).run((context) -> {
			context.getBean(LeaseHost.class).grants(1);
			assertThat(timers(context.getBean(MeterRegistry.class)))
				.containsExactly("lease.grants [error, lease.host, lease.outcome, team] x1");
		});
	}

	@Test
	void observationsTurnedOffByNameRecordNoTimer() {
		this.runner.withPropertyValues("management.observations.enable.lease=false").run((context) -> {
			context.getBean(LeaseHost.class).grants(1);
			assertThat(timers(context.getBean(MeterRegistry.class))).isEmpty();
		});
	}

	// The timers the observations make: lease.held is the host's own, kept beside them.
	private static List<String> timers(MeterRegistry meters) {
		Set<String> observations = Arrays.stream(LeaseObservationDocumentation.values())
			.map(LeaseObservationDocumentation::getName)
			.collect(Collectors.toSet());
		return meters.getMeters()
			.stream()
			.filter(Timer.class::isInstance)
			.map(Timer.class::cast)
			.filter((timer) -> observations.contains(timer.getId().getName()))
			.map((timer) -> timer.getId().getName() + " " + keys(timer) + " x" + timer.count())
			.toList();
	}

	private static String keys(Meter meter) {
		return meter.getId().getTags().stream().map((tag) -> tag.getKey()).sorted().toList().toString();
	}

	private static String fresh() {
		return UUID.randomUUID().toString();
	}

	@Configuration(proxyBeanMethods = false)
	static class ConventionConfiguration {

		@Bean
		LeaseObservationConvention teamConvention() {
			return new DefaultLeaseObservationConvention() {

				@Override
				public KeyValues getLowCardinalityKeyValues(LeaseObservationContext context) {
					return super.getLowCardinalityKeyValues(context).and("team", "payments");
				}

			};
		}

	}

}
