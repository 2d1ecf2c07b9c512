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

package dev.lease.autoconfigure.shedlock;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.autoconfigure.CustomLeaseHost;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.shedlock.LeaseLockProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ShedLockAutoConfiguration}.
 *
 * @author Lease contributors
 */
class ShedLockAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations
		.of(InMemoryLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class, ShedLockAutoConfiguration.class));

	@Test
	void runCreatesLockProviderOverTheChosenHost() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(LockProvider.class).hasSingleBean(LeaseLockProvider.class);
			assertThat(context.getBean(LeaseLockProvider.class).getHost()).isSameAs(context.getBean(LeaseHost.class));
		});
	}

	@Test
	void runWithUserHostTakesLeasesOnIt() {
		this.runner.withUserConfiguration(UserHostConfiguration.class).run((context) -> {
			LeaseLockProvider provider = context.getBean(LeaseLockProvider.class);
			assertThat(provider.getHost()).isSameAs(context.getBean(CustomLeaseHost.class));
			Optional<SimpleLock> lock = provider
				.lock(new LockConfiguration(Instant.now(), "report", Duration.ofSeconds(30), Duration.ZERO));
			assertThat(lock).isPresent();
			assertThat(context.getBean(CustomLeaseHost.class).grant(LeaseKey.of("report"))).isPresent();
			lock.get().unlock();
		});
	}

	@Test
	void runWithHolderPrefixNamesTheHolders() {
		this.runner.withPropertyValues("lease.holder-prefix=node-1").run((context) -> {
			LeaseLockProvider provider = context.getBean(LeaseLockProvider.class);
			SimpleLock lock = provider
				.lock(new LockConfiguration(Instant.now(), "prefixed", Duration.ofSeconds(30), Duration.ZERO))
				.orElseThrow();
			assertThat(provider.getHost().grant(LeaseKey.of("prefixed")).orElseThrow().holder().asString())
				.startsWith("node-1/");
			lock.unlock();
		});
	}

	@Test
	void closeWithinLockAtLeastForReleasesTheLockWhenItIsOldEnough() {
		InMemoryLeaseHost host = new InMemoryLeaseHost();
		this.runner.withBean(InMemoryLeaseHost.class, () -> host)
			.run((context) -> context.getBean(LeaseLockProvider.class)
				.lock(new LockConfiguration(Instant.now(), "held", Duration.ofMinutes(10), Duration.ofSeconds(1)))
				.orElseThrow()
				.unlock());
		assertThat(host.grant(LeaseKey.of("held"))).isEmpty();
	}

	@Test
	void runWithUserLockProviderBacksOff() {
		this.runner.withUserConfiguration(UserLockProviderConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(LockProvider.class)
				.doesNotHaveBean(LeaseLockProvider.class)
				.hasBean("userLockProvider"));
	}

	@Test
	void runWithoutShedLockDoesNotCreateLockProvider() {
		this.runner.withClassLoader(new FilteredClassLoader(LockProvider.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LeaseLockProvider.class));
	}

	@Test
	void runWithoutLeaseShedLockDoesNotCreateLockProvider() {
		this.runner.withClassLoader(new FilteredClassLoader(LeaseLockProvider.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LockProvider.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class UserHostConfiguration {

		@Bean
		CustomLeaseHost customLeaseHost() {
			return new CustomLeaseHost();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserLockProviderConfiguration {

		@Bean
		LockProvider userLockProvider() {
			return (configuration) -> Optional.empty();
		}

	}

}
