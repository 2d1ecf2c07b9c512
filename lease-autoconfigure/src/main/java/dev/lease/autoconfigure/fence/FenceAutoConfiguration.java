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

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.aop.Advisor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

import dev.lease.Allowance;
import dev.lease.aop.FencedAdvisor;
import dev.lease.fence.FenceAllowances;
import dev.lease.fence.FenceRefusalListener;
import dev.lease.observation.MeterRegistryFenceRefusalListener;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for fences: binds each fenced
 * party's allowance from {@code lease.fences.<party>.allowance}, applies {@code @Fenced}
 * through {@link FencedAdvisor}, and fails start-up when a party named in code has no
 * declared allowance. The {@link FenceRefusalListener} bean it provides counts
 * {@code lease.fence.refused} per party when Micrometer is present: hand it to the fenced
 * parties ({@code FencedJdbcTemplate}, {@code FencedRedisWrites}, the HTTP filters).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@AutoConfiguration(after = AopAutoConfiguration.class)
@ConditionalOnClass(Advisor.class)
@EnableConfigurationProperties(LeaseFenceProperties.class)
public final class FenceAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	FenceAllowances leaseFenceAllowances(LeaseFenceProperties properties) {
		Map<String, Allowance> allowances = new LinkedHashMap<>();
		properties.getFences().forEach((party, declared) -> {
			Duration allowance = declared.getAllowance();
			if (allowance != null) {
				allowances.put(party, Allowance.of(allowance));
			}
		});
		return FenceAllowances.of(allowances);
	}

	@Bean
	@ConditionalOnMissingBean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static FencedAdvisor fencedAdvisor(ObjectProvider<FenceAllowances> allowances) {
		return new FencedAdvisor((party) -> allowances.getObject().find(party));
	}

	@Bean
	@ConditionalOnMissingBean
	FenceRefusalListener leaseFenceRefusalListener() {
		return FenceRefusalListener.NONE;
	}

	@Bean
	static FencedPartiesCheck fencedPartiesCheck(ObjectProvider<FenceAllowances> allowances) {
		return new FencedPartiesCheck(allowances);
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
