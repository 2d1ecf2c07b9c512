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

package dev.lease.autoconfigure.fence;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.util.function.SingletonSupplier;

import dev.lease.Allowance;
import dev.lease.aop.FencedAdvisor;
import dev.lease.autoconfigure.LeaseConfigurationException;
import dev.lease.fence.FenceAllowances;
import dev.lease.fence.FenceRefusalListener;
import dev.lease.observation.MeterRegistryFenceRefusalListener;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for fences: binds each fenced
 * party's allowance from {@code lease.fences.<party>.allowance}, applies {@code @Fenced}
 * through {@link FencedAdvisor}, fails start-up when a party named in code or built by
 * the application has no declared allowance, and registers the {@code Lease-Fence} server
 * filter in a web application ({@code lease.fenced-server.*}).
 * <p>
 * The {@link FenceRefusalListener} bean it provides counts {@code lease.fence.refused}
 * per party when Micrometer is present. Every fence {@code @Fenced} binds carries it, so
 * a fenced party built without a listener ({@code new FencedJdbcTemplate(dataSource,
 * party)}) reports to it; nothing needs handing over.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
// Every type outside this jar is named, never a class literal: a literal of an absent
// class is dropped when the class is introspected by reflection (a user's context runner
// test), and the configuration would then be processed without it.
@AutoConfiguration(afterName = "org.springframework.boot.autoconfigure.aop.AopAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.aop.Advisor")
@EnableConfigurationProperties(LeaseFenceProperties.class)
@Import({ FenceFilterConfigurations.ServletFilterConfiguration.class,
		FenceFilterConfigurations.WebFilterConfiguration.class })
public final class FenceAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	FenceAllowances leaseFenceAllowances(LeaseFenceProperties properties) {
		Map<String, Allowance> allowances = new LinkedHashMap<>();
		properties.fences().forEach((party, declared) -> {
			Duration allowance = declared.allowance();
			if (allowance != null) {
				LeaseConfigurationException.applyProperty("lease.fences." + party + ".allowance", allowance,
						"the clock allowance between the lease host and " + party + ", zero or positive, such as 250ms",
						() -> allowances.put(party, Allowance.of(allowance)));
			}
		});
		return FenceAllowances.of(allowances);
	}

	@Bean
	@ConditionalOnMissingBean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static FencedAdvisor fencedAdvisor(ObjectProvider<FenceAllowances> allowances,
			ObjectProvider<FenceRefusalListener> listener) {
		// Both looked up at the first call: an advisor is made before the beans they
		// depend on (the meter registry) may be.
		Supplier<FenceRefusalListener> application = SingletonSupplier.of(listener::getObject);
		return new FencedAdvisor((party) -> allowances.getObject().find(party),
				(refusal) -> application.get().refused(refusal));
	}

	@Bean
	@ConditionalOnMissingBean
	FenceRefusalListener leaseFenceRefusalListener() {
		return FenceRefusalListener.NONE;
	}

	@Bean
	static FencedPartiesCheck fencedPartiesCheck(ObjectProvider<FenceAllowances> allowances,
			ConfigurableListableBeanFactory beanFactory) {
		return new FencedPartiesCheck(allowances, beanFactory);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
	static class MicrometerRefusalConfiguration {

		@Bean
		@ConditionalOnMissingBean
		FenceRefusalListener leaseFenceRefusalListener(ObjectProvider<MeterRegistry> registry) {
			return (refusal) -> registry
				.ifAvailable((meters) -> new MeterRegistryFenceRefusalListener(meters).refused(refusal));
		}

	}

}
