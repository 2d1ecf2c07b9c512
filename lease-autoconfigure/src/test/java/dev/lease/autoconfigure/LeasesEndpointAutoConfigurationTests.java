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

package dev.lease.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.lease.actuate.endpoint.LeasesEndpoint;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeasesEndpointAutoConfiguration}.
 *
 * @author Lease contributors
 */
class LeasesEndpointAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LeaseAutoConfiguration.class, InMemoryLeaseHostAutoConfiguration.class,
				LeasesEndpointAutoConfiguration.class));

	@Test
	void runWhenExposedCreatesTheEndpoint() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=leases")
			.run((context) -> assertThat(context).hasSingleBean(LeasesEndpoint.class));
	}

	@Test
	void runWhenNotExposedShouldNotCreateTheEndpoint() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(LeasesEndpoint.class));
	}

	@Test
	void runWhenDisabledShouldNotCreateTheEndpoint() {
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=leases",
					"management.endpoint.leases.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(LeasesEndpoint.class));
	}

	@Test
	void runWithoutActuatorShouldNotCreateTheEndpoint() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=leases")
			.withClassLoader(new FilteredClassLoader(ConditionalOnAvailableEndpoint.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LeasesEndpoint.class));
	}

	@Test
	void runWithoutHostShouldNotCreateTheEndpoint() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LeasesEndpointAutoConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=leases")
			.run((context) -> assertThat(context).doesNotHaveBean(LeasesEndpoint.class));
	}

}
