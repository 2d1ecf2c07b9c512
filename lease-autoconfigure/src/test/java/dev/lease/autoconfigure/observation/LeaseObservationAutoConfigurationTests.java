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
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lease.LeaseHost;
import dev.lease.autoconfigure.CustomLeaseHost;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseHostSelection;
import dev.lease.autoconfigure.LeasedJobs;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.observation.ObservedLeaseHost;
import dev.lease.template.LeaseRequest;
import dev.lease.template.LeaseTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeaseObservationAutoConfiguration}.
 *
 * @author Lease contributors
 */
@ExtendWith(OutputCaptureExtension.class)
class LeaseObservationAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LeaseAutoConfiguration.class, InMemoryLeaseHostAutoConfiguration.class,
				LeaseObservationAutoConfiguration.class))
		.withBean(LeasedJobs.class);

	@Test
	void runWithMeterRegistryMakesTheLeaseHostBeanTheObservedHost() {
		this.runner.withBean(SimpleMeterRegistry.class).run((context) -> {
			LeaseHost host = context.getBean(LeaseHost.class);
			assertThat(host).isInstanceOf(ObservedLeaseHost.class);
			assertThat(((ObservedLeaseHost) host).getTarget()).isInstanceOf(InMemoryLeaseHost.class);
			// the template, and so @Leased, use the bean itself: no second wrapper
			assertThat(context.getBean(LeaseTemplate.class).getHost()).isSameAs(host);
			assertThat(context.getBean(LeaseHostSelection.class).host()).isSameAs(host);
		});
	}

	@Test
	void activeGaugeIsRegisteredOnceWhenTheHostIsMade(CapturedOutput output) {
		this.runner.withBean(SimpleMeterRegistry.class).run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.find("lease.active").gauges()).hasSize(1);
			assertThat(meters.get("lease.active").tags("lease.host", "memory").gauge().value()).isZero();
			assertThat(output).doesNotContain("has been already registered");
		});
	}

	@Test
	void overrunOfALeasedCallIsCounted() {
		this.runner.withBean(SimpleMeterRegistry.class).run((context) -> {
			context.getBean(LeasedJobs.class).overrun(UUID.randomUUID().toString());
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("lease.overrun").tags("lease.host", "memory").counter().count()).isEqualTo(1.0);
		});
	}

	@Test
	void overrunsThroughTheLeaseTemplateAreCountedLikeLeasedCalls() {
		this.runner.withBean(SimpleMeterRegistry.class).run((context) -> {
			LeaseTemplate template = context.getBean(LeaseTemplate.class);
			template.run(LeaseRequest.of(UUID.randomUUID().toString(), Duration.ofMillis(200)),
					(lease) -> await().atMost(Duration.ofSeconds(5))
						.until(() -> template.getHost().remaining(lease.key(), lease.holder()).isEmpty()));
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("lease.overrun").tags("lease.host", "memory").counter().count()).isEqualTo(1.0);
		});
	}

	@Test
	void userLeaseHostBeanIsObservedToo() {
		this.runner.withBean(SimpleMeterRegistry.class).withBean(CustomLeaseHost.class).run((context) -> {
			assertThat(context).hasSingleBean(LeaseHost.class).doesNotHaveBean(InMemoryLeaseHost.class);
			LeaseHost host = context.getBean(LeaseHost.class);
			assertThat(ObservedLeaseHost.unwrap(host)).isInstanceOf(CustomLeaseHost.class);
			assertThat(context.getBean(MeterRegistry.class).get("lease.active").gauge().getId().getTag("lease.host"))
				.isEqualTo("customleasehost");
		});
	}

	@Test
	void userObservedLeaseHostIsLeftAsItIs() {
		this.runner.withBean(SimpleMeterRegistry.class)
			.withUserConfiguration(UserObservedHostConfiguration.class)
			.run((context) -> {
				LeaseHost host = context.getBean(LeaseHost.class);
				assertThat(host).isSameAs(context.getBean(UserObservedHostConfiguration.class).host);
				assertThat(((ObservedLeaseHost) host).getTarget()).isInstanceOf(CustomLeaseHost.class);
			});
	}

	@Test
	void memoryReachedByDetectionIsStillWarnedAboutWhenObserved(CapturedOutput output) {
		this.runner.withBean(SimpleMeterRegistry.class)
			.run((context) -> assertThat(output).contains("Leases are hosted in memory because")
				.doesNotContain("ObservedLeaseHost"));
	}

	@Test
	void runWithoutMeterRegistryBeanDoesNotObserve() {
		this.runner
			.run((context) -> assertThat(context.getBean(LeaseHost.class)).isInstanceOf(InMemoryLeaseHost.class));
	}

	@Test
	void runWithoutMicrometerOnTheClasspathDoesNotObserve() {
		this.runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.getBean(LeaseHost.class)
				.isInstanceOf(InMemoryLeaseHost.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class UserObservedHostConfiguration {

		ObservedLeaseHost host;

		@Bean
		ObservedLeaseHost userObservedLeaseHost(MeterRegistry meters) {
			this.host = new ObservedLeaseHost(new CustomLeaseHost(), "custom", meters, ObservationRegistry.NOOP);
			return this.host;
		}

	}

}
