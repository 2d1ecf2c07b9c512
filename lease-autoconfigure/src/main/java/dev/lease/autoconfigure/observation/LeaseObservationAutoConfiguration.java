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

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.observation.LeaseObservationConvention;
import dev.lease.observation.ObservedLeaseHost;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for the observation of every lease operation, when a
 * {@link MeterRegistry} is present: every {@code LeaseHost} bean, the auto-configured one
 * and the application's own, is replaced by an {@link ObservedLeaseHost} around it (one
 * that is an {@link ObservedLeaseHost} already is left as it is). A
 * {@link LeaseObservationConvention} bean replaces the default convention.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@AutoConfiguration(before = LeaseAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
				"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration" })
// Micrometer types are named, never class literals (see RedisLeaseHostAutoConfiguration).
@ConditionalOnClass(
		name = { "io.micrometer.core.instrument.MeterRegistry", "io.micrometer.observation.ObservationRegistry" })
@ConditionalOnBean(type = "io.micrometer.core.instrument.MeterRegistry")
public final class LeaseObservationAutoConfiguration {

	private LeaseObservationAutoConfiguration() {
	}

	// Static: a post-processor is made before the other beans, and must not drag this
	// configuration's dependencies with it. The registries and the convention are looked
	// up when the first host is made.
	@Bean
	@ConditionalOnMissingBean
	static ObservedLeaseHostPostProcessor observedLeaseHostPostProcessor(ObjectProvider<MeterRegistry> meters,
			ObjectProvider<ObservationRegistry> observations, ObjectProvider<LeaseObservationConvention> conventions) {
		return new ObservedLeaseHostPostProcessor(meters, observations, conventions);
	}

}
