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

package dev.lease.autoconfigure.inmemory;

import java.time.InstantSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

import dev.lease.LeaseHost;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseHostThreads;
import dev.lease.host.inmemory.InMemoryLeaseHost;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for the in-memory lease host: chosen by {@code lease.host=memory},
 * or reached by detection when no user-defined, Redis or JDBC host was created. Runs
 * after the Redis and JDBC host auto-configurations so that detection tries them first.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@AutoConfiguration(before = LeaseAutoConfiguration.class,
		afterName = { "dev.lease.autoconfigure.redis.RedisLeaseHostAutoConfiguration",
				"dev.lease.autoconfigure.jdbc.JdbcLeaseHostAutoConfiguration" })
@ConditionalOnProperty(name = "lease.host", havingValue = "memory", matchIfMissing = true)
public final class InMemoryLeaseHostAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(LeaseHost.class)
	InMemoryLeaseHost leaseHost(ObjectProvider<LeaseHostThreads> threads) {
		LeaseHostThreads given = threads.getIfAvailable();
		return new InMemoryLeaseHost(InstantSource.system(), (given != null) ? given.scheduler() : null);
	}

}
