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
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.context.annotation.Bean;

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
@AutoConfiguration(after = LeaseAutoConfiguration.class, before = HealthContributorAutoConfiguration.class)
@ConditionalOnClass(ConditionalOnEnabledHealthIndicator.class)
@ConditionalOnBean(LeaseHost.class)
@ConditionalOnEnabledHealthIndicator("lease")
public final class LeaseHostHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "leaseHealthIndicator")
	LeaseHostHealthIndicator leaseHealthIndicator(LeaseHostSelection selection) {
		LeaseHost host = selection.host();
		return new LeaseHostHealthIndicator(host, LeaseHostNames.of(host), RedisHealthDetails.of(host));
	}

}
