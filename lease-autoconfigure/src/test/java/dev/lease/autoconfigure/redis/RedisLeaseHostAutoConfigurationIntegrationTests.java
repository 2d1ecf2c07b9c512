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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.autoconfigure.CustomLeaseHost;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseHostSelection;
import dev.lease.autoconfigure.health.LeaseHostHealthContributorAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.autoconfigure.jdbc.JdbcLeaseHostAutoConfiguration;
import dev.lease.autoconfigure.jdbc.JdbcLeaseHostDataSourceScriptDatabaseInitializer;
import dev.lease.health.LeaseHostHealthIndicator;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.host.jdbc.JdbcLeaseHost;
import dev.lease.host.redis.RedisDurability.Status;
import dev.lease.host.redis.RedisLeaseHost;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisLeaseHostAutoConfiguration} against a real Redis server.
 *
 * @author Lease contributors
 */
class RedisLeaseHostAutoConfigurationIntegrationTests {

	private static RedisTestServer server;

	@BeforeAll
	static void startServer() {
		server = RedisTestServer.start();
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					RedisLeaseHostAutoConfiguration.class, JdbcLeaseHostAutoConfiguration.class,
					InMemoryLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class))
			.withPropertyValues(server.properties())
			.withPropertyValues("lease.redis.key-prefix=" + freshPrefix());
	}

	private static String freshPrefix() {
		return "it-" + UUID.randomUUID() + ":";
	}

	@Test
	void runWithRedisConnectionFactoryDetectsTheRedisHost() {
		runner().run((context) -> {
			assertThat(context).hasSingleBean(RedisLeaseHost.class).hasSingleBean(LeaseHost.class);
			assertThat(context.getBean(LeaseHostSelection.class).host()).isInstanceOf(RedisLeaseHost.class);
		});
	}

	@Test
	void runWithRedisAndDataSourceDetectsRedisFirst() {
		runner().withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.generate-unique-name=true")
			.run((context) -> assertThat(context).hasSingleBean(LeaseHost.class)
				.hasSingleBean(RedisLeaseHost.class)
				.doesNotHaveBean(JdbcLeaseHost.class)
				.doesNotHaveBean(JdbcLeaseHostDataSourceScriptDatabaseInitializer.class));
	}

	@Test
	void runWithHostRedisCreatesTheRedisHost() {
		runner().withPropertyValues("lease.host=redis")
			.run((context) -> assertThat(context).hasSingleBean(RedisLeaseHost.class));
	}

	@Test
	void runWithHostJdbcAndDataSourceDoesNotCreateTheRedisHost() {
		runner().withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("lease.host=jdbc", "spring.datasource.generate-unique-name=true")
			.run((context) -> assertThat(context).hasSingleBean(LeaseHost.class)
				.hasSingleBean(JdbcLeaseHost.class)
				.doesNotHaveBean(RedisLeaseHost.class));
	}

	@Test
	void runWithHostMemoryDoesNotCreateTheRedisHost() {
		runner().withPropertyValues("lease.host=memory")
			.run((context) -> assertThat(context).hasSingleBean(InMemoryLeaseHost.class)
				.doesNotHaveBean(RedisLeaseHost.class));
	}

	@Test
	void runWithUserLeaseHostBacksOff() {
		runner().withUserConfiguration(UserHostConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(LeaseHost.class)
				.hasSingleBean(CustomLeaseHost.class)
				.doesNotHaveBean(RedisLeaseHost.class));
	}

	@Test
	void keyPrefixPropertyPrefixesEveryRedisKey() {
		String prefix = freshPrefix();
		runner().withPropertyValues("lease.redis.key-prefix=" + prefix).run((context) -> {
			RedisLeaseHost host = context.getBean(RedisLeaseHost.class);
			assertThat(host.keyPrefix()).isEqualTo(prefix);
			LeaseKey key = LeaseKey.of("key-" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
			assertThat(host.tryTake(key, holder, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
			try (RedisConnection connection = context.getBean(RedisConnectionFactory.class).getConnection()) {
				// the lease's key and the prefix's protocol record
				assertThat(connection.keyCommands().keys((prefix + "*").getBytes(StandardCharsets.US_ASCII)))
					.map((name) -> new String(name, StandardCharsets.US_ASCII))
					.hasSize(2)
					.contains(prefix + "protocol");
			}
			host.release(key, holder);
		});
	}

	@Test
	void keyPrefixWithAGlobCharacterIsRefusedAtStartUp() {
		runner().withPropertyValues("lease.redis.key-prefix=lease*").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("for lease.redis.key-prefix")
				.rootCause()
				.hasMessageContaining("'lease*'");
		});
	}

	@Test
	void requireDurableAndReplicaPropertiesBind() {
		runner().withPropertyValues("lease.redis.replicas-to-ack=0", "lease.redis.replica-timeout=250ms")
			.run((context) -> {
				RedisLeaseHostProperties properties = context.getBean(RedisLeaseHostProperties.class);
				assertThat(properties.requireDurable()).isFalse();
				assertThat(properties.replicasToAck()).isZero();
				assertThat(properties.replicaTimeout()).isEqualTo(Duration.ofMillis(250));
				assertThat(properties.durabilityCheckInterval()).isEqualTo(Duration.ofSeconds(10));
			});
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void replicaTimeoutNotShorterThanTheCommandTimeoutIsWarnedOfAtStart(CapturedOutput output) {
		runner()
			.withPropertyValues("lease.redis.replicas-to-ack=1", "lease.redis.replica-timeout=3s",
					"spring.data.redis.timeout=2s")
			.run((context) -> assertThat(context).hasSingleBean(RedisLeaseHost.class));
		assertThat(output).contains("replicaTimeout PT3S (lease.redis.replica-timeout) is not shorter than the Redis"
				+ " command timeout of 2000 ms (spring.data.redis.timeout)");
		runner()
			.withPropertyValues("lease.redis.replicas-to-ack=1", "lease.redis.replica-timeout=1s",
					"spring.data.redis.timeout=2s")
			.run((context) -> assertThat(context).hasSingleBean(RedisLeaseHost.class));
		assertThat(output).containsOnlyOnce("is not shorter than the Redis command timeout");
	}

	@Test
	void requireDurableFailsTheStartUnlessTheServerIsDurable() {
		AtomicReference<Status> status = new AtomicReference<>();
		runner().run((context) -> status.set(context.getBean(RedisLeaseHost.class).durability().status()));
		runner().withPropertyValues("lease.redis.require-durable=true").run((context) -> {
			if (status.get() == Status.DURABLE) {
				assertThat(context).hasSingleBean(RedisLeaseHost.class);
			}
			else {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("Redis is required to be durable");
			}
		});
	}

	@Test
	void hostIsClosedWithTheContext() {
		String prefix = freshPrefix();
		runner().withPropertyValues("lease.redis.key-prefix=" + prefix)
			.run((context) -> assertThat(server.subscribers(prefix + "handoff")).isOne());
		assertThat(server.subscribers(prefix + "handoff")).isZero();
	}

	@Test
	void customizersAreAppliedInOrderAfterTheProperties() {
		runner().withUserConfiguration(CustomizersConfiguration.class).run((context) -> {
			CustomizersConfiguration customizers = context.getBean(CustomizersConfiguration.class);
			assertThat(customizers.applied).containsExactly("first", "second");
			assertThat(server.subscribers(customizers.prefix + "handoff")).isOne();
		});
	}

	@Test
	void healthReportsTheDurabilityOfTheRedisServer() {
		runner().withConfiguration(AutoConfigurations.of(LeaseHostHealthContributorAutoConfiguration.class))
			.run((context) -> {
				RedisLeaseHost host = context.getBean(RedisLeaseHost.class);
				Health health = context.getBean(LeaseHostHealthIndicator.class).health();
				assertThat(health.getDetails()).containsEntry("host", "redis")
					.containsEntry("durability",
							Map.of("status", host.durability().status().name(), "reason", host.durability().reason()));
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class UserHostConfiguration {

		@Bean
		CustomLeaseHost customLeaseHost() {
			return new CustomLeaseHost();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomizersConfiguration {

		final List<String> applied = new CopyOnWriteArrayList<>();

		final String prefix = freshPrefix();

		@Bean
		@Order(2)
		RedisLeaseHostBuilderCustomizer secondCustomizer() {
			return (builder) -> {
				this.applied.add("second");
				builder.keyPrefix(this.prefix);
			};
		}

		@Bean
		@Order(1)
		RedisLeaseHostBuilderCustomizer firstCustomizer() {
			return (builder) -> this.applied.add("first");
		}

	}

}
