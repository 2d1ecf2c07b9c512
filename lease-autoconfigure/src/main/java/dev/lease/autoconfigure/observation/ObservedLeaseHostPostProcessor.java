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

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.SmartInstantiationAwareBeanPostProcessor;

import dev.lease.LeaseHost;
import dev.lease.autoconfigure.LeaseHostNames;
import dev.lease.observation.LeaseObservationConvention;
import dev.lease.observation.ObservedLeaseHost;

/**
 * Puts an {@link ObservedLeaseHost} around every {@link LeaseHost} bean, the
 * auto-configured one and the application's own, so that whoever uses the bean (code that
 * injects it, the {@code LeaseTemplate}, {@code @Leased}, the endpoint, the health check)
 * is observed, once. A bean that is an {@link ObservedLeaseHost} already is left as it
 * is. The bean's type becomes {@link ObservedLeaseHost}, and is predicted so, so that
 * type matching agrees before and after the bean is made.
 *
 * @author Lease contributors
 */
final class ObservedLeaseHostPostProcessor implements SmartInstantiationAwareBeanPostProcessor {

	private final ObjectProvider<MeterRegistry> meters;

	private final ObjectProvider<ObservationRegistry> observations;

	private final ObjectProvider<LeaseObservationConvention> conventions;

	// Hosts handed out early (a circular reference), so that the bean made at the end is
	// the same observed host.
	private final Map<String, Object> early = new ConcurrentHashMap<>();

	ObservedLeaseHostPostProcessor(ObjectProvider<MeterRegistry> meters,
			ObjectProvider<ObservationRegistry> observations, ObjectProvider<LeaseObservationConvention> conventions) {
		this.meters = meters;
		this.observations = observations;
		this.conventions = conventions;
	}

	@Override
	public @Nullable Class<?> predictBeanType(Class<?> beanClass, String beanName) {
		return observes(beanClass) ? ObservedLeaseHost.class : null;
	}

	@Override
	public Object getEarlyBeanReference(Object bean, String beanName) {
		if (!observes(bean.getClass())) {
			return bean;
		}
		this.early.put(beanName, bean);
		return observe((LeaseHost) bean);
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (this.early.remove(beanName) == bean || !observes(bean.getClass())) {
			return bean;
		}
		return observe((LeaseHost) bean);
	}

	private static boolean observes(Class<?> type) {
		return LeaseHost.class.isAssignableFrom(type) && !ObservedLeaseHost.class.isAssignableFrom(type);
	}

	private ObservedLeaseHost observe(LeaseHost host) {
		return new ObservedLeaseHost(host, LeaseHostNames.of(host), this.meters.getObject(),
				this.observations.getIfAvailable(() -> ObservationRegistry.NOOP), this.conventions.getIfUnique());
	}

}
