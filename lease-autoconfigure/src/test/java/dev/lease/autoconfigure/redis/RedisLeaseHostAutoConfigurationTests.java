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

package dev.lease.autoconfigure.redis;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.NoLeaseHostException;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.host.redis.RedisLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisLeaseHostAutoConfiguration} without a Redis server.
 *
 * @author Lease contributors
 */
class RedisLeaseHostAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RedisLeaseHostAutoConfiguration.class,
				InMemoryLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class));

	@Test
	void propertiesDefaultToTheHostsDefaults() {
		RedisLeaseHostProperties properties = new Binder().bindOrCreate("lease.redis", RedisLeaseHostProperties.class);
		assertThat(properties.keyPrefix()).isEqualTo(RedisLeaseHost.DEFAULT_KEY_PREFIX);
		assertThat(properties.requireDurable()).isFalse();
		assertThat(properties.replicasToAck()).isZero();
		assertThat(properties.replicaTimeout()).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void runWithoutRedisConnectionFactoryDoesNotCreateTheRedisHost() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(RedisLeaseHost.class)
			.hasSingleBean(InMemoryLeaseHost.class));
	}

	@Test
	void runWithoutSpringDataRedisDetectsMemory() {
		this.runner.withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class))
			.run((context) -> assertThat(context).doesNotHaveBean(RedisLeaseHost.class)
				.hasSingleBean(InMemoryLeaseHost.class));
	}

	@Test
	void runWithHostRedisButNoRedisConnectionFactoryFailsWithTheAnalyzedExplanation() {
		this.runner.withPropertyValues("lease.host=redis").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(NoLeaseHostException.class);
			NoLeaseHostException failure = (NoLeaseHostException) context.getStartupFailure();
			assertThat(failure.getDescription())
				.isEqualTo("lease.host is 'redis' but no redis lease host could be created");
			assertThat(failure.getAction()).contains("RedisConnectionFactory").contains("choose another lease.host");
		});
	}

}
