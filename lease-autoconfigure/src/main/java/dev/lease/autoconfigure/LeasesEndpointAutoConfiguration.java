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

import java.util.List;
import java.util.Set;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.env.Environment;

import dev.lease.LeaseHost;
import dev.lease.actuate.endpoint.LeasesEndpoint;
import dev.lease.actuate.endpoint.LeasesEndpointWebExtension;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for the read-only {@link LeasesEndpoint}. Holders are shown per
 * {@code management.endpoint.leases.show-values} (default {@code never}) and
 * {@code management.endpoint.leases.roles}.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@AutoConfiguration(after = LeaseAutoConfiguration.class)
// Actuator types are named, never class literals (see RedisLeaseHostAutoConfiguration).
@ConditionalOnClass(
		name = { "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint",
				"org.springframework.boot.actuate.endpoint.Show" })
@ConditionalOnBean(LeaseHost.class)
@ImportRuntimeHints(LeaseRuntimeHints.class)
public final class LeasesEndpointAutoConfiguration {

	// Nested, so that the endpoint's condition (an Actuator class) is read only once the
	// Actuator is known to be present.
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnAvailableEndpoint(LeasesEndpoint.class)
	static class AvailableLeasesEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		LeasesEndpoint leasesEndpoint(LeaseHostSelection selection, Environment environment) {
			Binder binder = Binder.get(environment);
			Show show = binder.bind("management.endpoint.leases.show-values", Show.class).orElse(Show.NEVER);
			List<String> roles = binder.bind("management.endpoint.leases.roles", Bindable.listOf(String.class))
				.orElse(List.of());
			return new LeasesEndpoint(selection.host(), show, Set.copyOf(roles));
		}

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(LeasesEndpoint.class)
		LeasesEndpointWebExtension leasesEndpointWebExtension(LeasesEndpoint leasesEndpoint) {
			return new LeasesEndpointWebExtension(leasesEndpoint);
		}

	}

}
