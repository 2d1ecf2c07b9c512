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

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lease.LeaseHost;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseHostNames;
import dev.lease.autoconfigure.LeaseHostSelection;
import dev.lease.health.LeaseHostHealthIndicator;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for the {@code lease} health contributor.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
// Actuator types are named, never class literals (see RedisLeaseHostAutoConfiguration).
@AutoConfiguration(after = LeaseAutoConfiguration.class,
		beforeName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass(
		name = { "org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator",
				"org.springframework.boot.health.contributor.HealthIndicator" })
@ConditionalOnBean(LeaseHost.class)
public final class LeaseHostHealthContributorAutoConfiguration {

	// Nested, so that the indicator's condition (an Actuator class) is read only once the
	// Actuator is known to be present.
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnEnabledHealthIndicator("lease")
	static class EnabledLeaseHealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "leaseHealthIndicator")
		LeaseHostHealthIndicator leaseHealthIndicator(LeaseHostSelection selection) {
			LeaseHost host = selection.host();
			return new LeaseHostHealthIndicator(host, LeaseHostNames.of(host), RedisHealthDetails.of(host));
		}

	}

}
