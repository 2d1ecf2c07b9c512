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
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseHostDecorator;
import dev.lease.autoconfigure.LeasedJobs;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
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
		.withUserConfiguration(JobsConfiguration.class);

	@Test
	void runWithMeterRegistryMetersLeasedCalls() {
		this.runner.withUserConfiguration(MeterRegistryConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(LeaseHostDecorator.class);
			context.getBean(LeasedJobs.class).standing(UUID.randomUUID().toString());
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(
					meters.get("lease.take").tags("host", "memory", "mode", "take", "outcome", "taken").timer().count())
				.isEqualTo(1);
			assertThat(meters.get("lease.release").tags("host", "memory", "outcome", "released").counter().count())
				.isEqualTo(1.0);
			assertThat(meters.get("lease.active").tags("host", "memory").gauge().value()).isZero();
			assertThat(meters.get("lease.overrun").counter().count()).isZero();
		});
	}

	@Test
	void decoratingOneHostTwiceRegistersItsMetersOnce(CapturedOutput output) {
		this.runner.withUserConfiguration(MeterRegistryConfiguration.class).run((context) -> {
			LeaseHostDecorator decorator = context.getBean(LeaseHostDecorator.class);
			LeaseHost host = context.getBean(LeaseHost.class);
			assertThat(decorator.decorate(host)).isSameAs(decorator.decorate(host));
			assertThat(context.getBean(MeterRegistry.class).find("lease.active").gauges()).hasSize(1);
			assertThat(output).doesNotContain("has been already registered");
		});
	}

	@Test
	void activeGaugeExistsBeforeTheFirstLeasedCall() {
		this.runner.withUserConfiguration(MeterRegistryConfiguration.class)
			.run((context) -> assertThat(
					context.getBean(MeterRegistry.class).get("lease.active").tags("host", "memory").gauge().value())
				.isZero());
	}

	@Test
	void overrunOfALeasedCallIsCounted() {
		this.runner.withUserConfiguration(MeterRegistryConfiguration.class).run((context) -> {
			context.getBean(LeasedJobs.class).overrun(UUID.randomUUID().toString());
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("lease.overrun").tags("host", "memory").counter().count()).isEqualTo(1.0);
			assertThat(meters.get("lease.release").tags("outcome", "not_held").counter().count()).isEqualTo(1.0);
		});
	}

	@Test
	void callsAndOverrunsThroughTheLeaseTemplateAreCountedLikeLeasedCalls() {
		this.runner.withUserConfiguration(MeterRegistryConfiguration.class).run((context) -> {
			LeaseTemplate template = context.getBean(LeaseTemplate.class);
			template.run(LeaseRequest.of(UUID.randomUUID().toString(), Duration.ofSeconds(30)), (lease) -> {
			});
			template.run(LeaseRequest.of(UUID.randomUUID().toString(), Duration.ofMillis(200)),
					(lease) -> await().atMost(Duration.ofSeconds(5))
						.until(() -> template.getHost().remaining(lease.key(), lease.holder()).isEmpty()));
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("lease.take").tags("mode", "take", "outcome", "taken").timer().count()).isEqualTo(2);
			assertThat(meters.get("lease.overrun").tags("host", "memory").counter().count()).isEqualTo(1.0);
		});
	}

	@Test
	void runWithoutMeterRegistryBeanDoesNotMeter() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(LeaseHostDecorator.class));
	}

	@Test
	void runWithoutMicrometerOnTheClasspathDoesNotMeter() {
		this.runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LeaseHostDecorator.class));
	}

	@Test
	void userDecoratorNamedLikeOursBacksOffOurs() {
		this.runner.withUserConfiguration(MeterRegistryConfiguration.class, UserDecoratorConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(LeaseHostDecorator.class)
				.getBean("leaseHostObservation")
				.isSameAs(UserDecoratorConfiguration.DECORATOR));
	}

	@Configuration(proxyBeanMethods = false)
	static class MeterRegistryConfiguration {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class JobsConfiguration {

		@Bean
		LeasedJobs leasedJobs(LeaseHost host) {
			return new LeasedJobs(host);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserDecoratorConfiguration {

		static final LeaseHostDecorator DECORATOR = (host) -> host;

		@Bean
		LeaseHostDecorator leaseHostObservation() {
			return DECORATOR;
		}

	}

}
