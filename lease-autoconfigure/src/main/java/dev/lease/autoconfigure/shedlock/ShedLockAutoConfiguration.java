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

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

import dev.lease.LeaseHost;
import dev.lease.autoconfigure.HeldReleasesLifecycle;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseHostDecorator;
import dev.lease.autoconfigure.LeaseHostSelection;
import dev.lease.autoconfigure.LeaseHostThreads;
import dev.lease.autoconfigure.LeaseProperties;
import dev.lease.shedlock.LeaseLockProvider;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for ShedLock: a
 * {@link LeaseLockProvider} over the application's lease host, so that every
 * {@code @SchedulerLock} takes a lease. It backs off when the application defines its own
 * ShedLock {@code LockProvider}.
 * <p>
 * The host is the one {@link LeaseAutoConfiguration} chose (a user's {@link LeaseHost}
 * bean first), decorated as {@code @Leased}'s is, so its calls are observed the same way.
 * Holders are {@code <lease.holder-prefix>/<uuid>} when the prefix is set, else
 * {@code shedlock@<host>:<pid>/<uuid>}.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
// ShedLock and lease-shedlock are named, never class literals: either may be absent.
@AutoConfiguration(after = LeaseAutoConfiguration.class)
@ConditionalOnClass(name = { "net.javacrumbs.shedlock.core.LockProvider", "dev.lease.shedlock.LeaseLockProvider" })
public final class ShedLockAutoConfiguration {

	// Lazy, as the template is: without a host the selection reports it once the
	// singletons exist, rather than as the failure to create this bean. ShedLock's
	// advice, which injects the provider, creates it.
	@Bean(destroyMethod = "close")
	@Lazy
	@ConditionalOnMissingBean(type = "net.javacrumbs.shedlock.core.LockProvider")
	LeaseLockProvider leaseLockProvider(LeaseHostSelection selection, ObjectProvider<LeaseHostDecorator> decorators,
			LeaseProperties properties) {
		LeaseHost host = selection.decoratedHost(decorators);
		String holderPrefix = properties.holderPrefix();
		return StringUtils.hasText(holderPrefix) ? new LeaseLockProvider(host, "", holderPrefix)
				: new LeaseLockProvider(host);
	}

	// Closes the providers when the application stops, once the scheduled tasks have
	// completed and before the host closes, so the releases they hold back are made.
	@Bean
	HeldReleasesLifecycle<LeaseLockProvider> leaseLockProviderHeldReleases(ConfigurableListableBeanFactory beanFactory,
			Environment environment, ObjectProvider<LeaseHostThreads> threads) {
		return new HeldReleasesLifecycle<>(beanFactory, LeaseLockProvider.class, LeaseLockProvider::close, environment,
				threads.getIfAvailable());
	}

}
