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

package dev.lease.autoconfigure.health;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.health.LeaseHostHealthIndicator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeaseHostHealthContributorAutoConfiguration}.
 *
 * @author Lease contributors
 */
class LeaseHostHealthContributorAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LeaseAutoConfiguration.class, InMemoryLeaseHostAutoConfiguration.class,
				LeaseHostHealthContributorAutoConfiguration.class));

	@Test
	void runCreatesAnIndicatorThatReportsTheHostUp() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(LeaseHostHealthIndicator.class).hasBean("leaseHealthIndicator");
			Health health = context.getBean(LeaseHostHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("host", "memory");
		});
	}

	@Test
	void runWhenDisabledShouldNotCreateIndicator() {
		this.runner.withPropertyValues("management.health.lease.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LeaseHostHealthIndicator.class));
	}

	@Test
	void runWithoutHealthModuleShouldNotCreateIndicator() {
		this.runner.withClassLoader(new FilteredClassLoader(ConditionalOnEnabledHealthIndicator.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LeaseHostHealthIndicator.class));
	}

	@Test
	void runWithoutHostShouldNotCreateIndicator() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LeaseHostHealthContributorAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LeaseHostHealthIndicator.class));
	}

}
