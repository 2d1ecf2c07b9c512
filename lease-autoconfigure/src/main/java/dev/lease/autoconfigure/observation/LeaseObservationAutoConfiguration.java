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

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.lease.LeaseHost;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseHostDecorator;
import dev.lease.autoconfigure.LeaseHostNames;
import dev.lease.observation.ObservedLeaseHost;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for the lease meters ({@code lease.take}, {@code lease.release},
 * {@code lease.overrun}, {@code lease.active}) and observations, when a
 * {@link MeterRegistry} is present.
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

	@Bean
	@ConditionalOnMissingBean(name = "leaseHostObservation")
	LeaseHostDecorator leaseHostObservation(ObjectProvider<MeterRegistry> meters,
			ObjectProvider<ObservationRegistry> observations) {
		// One observed host per host, however often it is decorated: its meters, the
		// lease.active gauge among them, are registered once.
		Map<LeaseHost, LeaseHost> observed = Collections.synchronizedMap(new IdentityHashMap<>());
		return (host) -> observed.computeIfAbsent(host,
				(undecorated) -> new ObservedLeaseHost(undecorated, LeaseHostNames.of(undecorated), meters.getObject(),
						observations.getIfAvailable(() -> ObservationRegistry.NOOP)));
	}

}
