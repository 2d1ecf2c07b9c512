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

package dev.lease.autoconfigure.inmemory;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lease.LeaseHost;
import dev.lease.autoconfigure.CustomLeaseHost;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link InMemoryLeaseHostAutoConfiguration}.
 *
 * @author Lease contributors
 */
class InMemoryLeaseHostAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(InMemoryLeaseHostAutoConfiguration.class));

	@Test
	void runWithNoHostPropertyCreatesTheInMemoryHost() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(InMemoryLeaseHost.class));
	}

	@Test
	void runWithHostMemoryCreatesTheInMemoryHost() {
		this.runner.withPropertyValues("lease.host=memory")
			.run((context) -> assertThat(context).hasSingleBean(InMemoryLeaseHost.class));
	}

	@Test
	void runWithHostMemoryInAnyCaseCreatesTheInMemoryHost() {
		this.runner.withPropertyValues("lease.host=MEMORY")
			.run((context) -> assertThat(context).hasSingleBean(InMemoryLeaseHost.class));
	}

	@Test
	void runWhenHostIsNotSelectedShouldNotCreateHost() {
		this.runner.withPropertyValues("lease.host=redis")
			.run((context) -> assertThat(context).doesNotHaveBean(LeaseHost.class));
		this.runner.withPropertyValues("lease.host=jdbc")
			.run((context) -> assertThat(context).doesNotHaveBean(LeaseHost.class));
	}

	@Test
	void runWithUserHostBacksOff() {
		this.runner.withUserConfiguration(UserHostConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(LeaseHost.class)
				.doesNotHaveBean(InMemoryLeaseHost.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class UserHostConfiguration {

		@Bean
		CustomLeaseHost customLeaseHost() {
			return new CustomLeaseHost();
		}

	}

}
