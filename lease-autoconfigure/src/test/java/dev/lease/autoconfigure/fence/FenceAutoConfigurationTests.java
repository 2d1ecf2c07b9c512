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
import java.time.Instant;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lease.Allowance;
import dev.lease.annotation.Fenced;
import dev.lease.aop.FencedAdvisor;
import dev.lease.autoconfigure.LeaseConfigurationException;
import dev.lease.fence.FenceAllowances;
import dev.lease.fence.FenceRefusal;
import dev.lease.fence.FenceRefusalListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link FenceAutoConfiguration}.
 *
 * @author Lease contributors
 */
class FenceAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, FenceAutoConfiguration.class));

	@Test
	@DisplayName("Invariant 6: each fenced party's allowance is bound from lease.fences.<party>.allowance")
	void bindsEachPartysAllowanceFromProperties() {
		this.contextRunner
			.withPropertyValues("lease.fences.orders-db.allowance=250ms", "lease.fences.payments.allowance=2s")
			.run((context) -> {
				assertThat(context).hasSingleBean(FencedAdvisor.class);
				FenceAllowances allowances = context.getBean(FenceAllowances.class);
				assertThat(allowances.find("orders-db")).isEqualTo(Allowance.of(Duration.ofMillis(250)));
				assertThat(allowances.find("payments")).isEqualTo(Allowance.of(Duration.ofSeconds(2)));
				assertThat(allowances.find("journal")).isNull();
			});
	}

	@Test
	@DisplayName("Invariant 6.1: a party named in @Fenced with no declared allowance fails start-up")
	void partyNamedInCodeButMissingFromConfigurationFailsStartUp() {
		this.contextRunner.withUserConfiguration(RepositoryConfiguration.class)
			.withPropertyValues("lease.fences.payments.allowance=2s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.isInstanceOf(LeaseConfigurationException.class)
				.hasMessageContaining("'orders-db'")
				.hasMessageContaining("lease.fences.orders-db.allowance"));
	}

	@Test
	@DisplayName("Fence 5: a declared party starts, and its @Fenced bean is advised (outside a lease nothing runs)")
	void declaredPartyStartsAndFencedBeanIsAdvised() {
		this.contextRunner.withUserConfiguration(RepositoryConfiguration.class)
			.withPropertyValues("lease.fences.orders-db.allowance=250ms")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				OrderRepository repository = context.getBean(OrderRepository.class);
				assertThatIllegalStateException().isThrownBy(() -> repository.save("order-1"))
					.withMessageContaining("outside any lease");
				assertThat(repository.saved).isZero();
			});
	}

	@Test
	@DisplayName("Invariant 6: a user's FenceAllowances bean wins over the properties")
	void userAllowancesWin() {
		this.contextRunner.withUserConfiguration(RepositoryConfiguration.class, UserAllowancesConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(FenceAllowances.class).find("orders-db"))
					.isEqualTo(Allowance.of(Duration.ofSeconds(1)));
			});
	}

	@Test
	@DisplayName("Fence 3: the refusal listener counts lease.fence.refused per party in the application's registry")
	void refusalListenerCountsInTheMeterRegistry() {
		this.contextRunner.withBean(SimpleMeterRegistry.class).run((context) -> {
			FenceRefusalListener listener = context.getBean(FenceRefusalListener.class);
			listener.refused(new FenceRefusal("orders-db", null, Instant.EPOCH, null, null));
			assertThat(context.getBean(SimpleMeterRegistry.class)
				.get("lease.fence.refused")
				.tag("party", "orders-db")
				.counter()
				.count()).isEqualTo(1);
		});
	}

	@Test
	@DisplayName("Fence 3: without Micrometer the refusal listener does nothing")
	void refusalListenerWithoutMicrometerDoesNothing() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context.getBean(FenceRefusalListener.class))
				.isSameAs(FenceRefusalListener.NONE));
	}

	@Configuration(proxyBeanMethods = false)
	static class RepositoryConfiguration {

		@Bean
		OrderRepository orderRepository() {
			return new OrderRepository();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserAllowancesConfiguration {

		@Bean
		FenceAllowances fenceAllowances() {
			return FenceAllowances.of(java.util.Map.of("orders-db", Allowance.of(Duration.ofSeconds(1))));
		}

	}

	static class OrderRepository {

		int saved;

		@Fenced("orders-db")
		void save(String order) {
			this.saved++;
		}

	}

}
