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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.health.LeaseHostHealthContributorAutoConfiguration;
import dev.lease.autoconfigure.observation.LeaseObservationAutoConfiguration;
import dev.lease.health.LeaseHostHealthIndicator;
import dev.lease.host.redis.RedisLeaseHost;
import dev.lease.observation.ObservedLeaseHost;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests that health, the {@code lease.host.durability} gauge and
 * {@code lease.redis.require-durable} follow the Redis host's latest durability check, on
 * a server the test starts and reconfigures.
 *
 * @author Lease contributors
 */
class RedisDurabilityReportingIntegrationTests {

	private static final Duration LONG = Duration.ofSeconds(30);

	@Test
	void healthGaugeAndRequireDurableFollowAServerReconfiguredWhileRunning(@TempDir Path directory) throws Exception {
		List<String> settings = List.of("appendonly yes", "appendfsync always",
				"dir " + Files.createDirectories(directory.resolve("data")));
		try (RedisTestServer server = RedisTestServer.startEmbedded(RedisTestServer.freePort(), settings)) {
			new ApplicationContextRunner()
				.withConfiguration(
						AutoConfigurations.of(DataRedisAutoConfiguration.class, RedisLeaseHostAutoConfiguration.class,
								LeaseAutoConfiguration.class, LeaseHostHealthContributorAutoConfiguration.class,
								MetricsAutoConfiguration.class, LeaseObservationAutoConfiguration.class))
				.withUserConfiguration(MeterRegistryConfiguration.class)
				.withPropertyValues(server.properties())
				.withPropertyValues("lease.redis.key-prefix=reporting-" + UUID.randomUUID() + ":",
						"lease.redis.require-durable=true", "lease.redis.durability-check-interval=200ms")
				.run((context) -> {
					// the observed host around the Redis host: its health details and
					// gauge
					// are the Redis host's
					LeaseHost host = context.getBean(LeaseHost.class);
					assertThat(host).isInstanceOf(ObservedLeaseHost.class);
					assertThat(ObservedLeaseHost.unwrap(host)).isInstanceOf(RedisLeaseHost.class);
					assertReported(context, "DURABLE", 1);
					setConfig(context, "appendonly", "no");
					await().atMost(Duration.ofSeconds(10))
						.untilAsserted(() -> assertReported(context, "NOT_DURABLE", 0));
					assertThat(durability(context).get("reason")).asString().contains("appendonly");
					LeaseKey key = LeaseKey.of("reporting-" + UUID.randomUUID());
					LeaseHolder holder = LeaseHolder.of("holder");
					assertThatExceptionOfType(LeaseHostException.class)
						.isThrownBy(() -> host.tryTake(key, holder, LONG))
						.withMessageContaining("lease.redis.require-durable");
					setConfig(context, "appendonly", "yes");
					await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertReported(context, "DURABLE", 1));
					assertThat(host.tryTake(key, holder, LONG)).isInstanceOf(Taken.class);
					host.release(key, holder);
				});
		}
	}

	private static void assertReported(ApplicationContext context, String status, double gauge) {
		assertThat(durability(context)).containsEntry("status", status);
		assertThat(context.getBean(MeterRegistry.class)
			.get("lease.host.durability")
			.tag("lease.host", "redis")
			.gauge()
			.value()).isEqualTo(gauge);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> durability(ApplicationContext context) {
		return (Map<String, Object>) context.getBean(LeaseHostHealthIndicator.class)
			.health()
			.getDetails()
			.get("durability");
	}

	private static void setConfig(ApplicationContext context, String name, String value) {
		try (RedisConnection connection = context.getBean(RedisConnectionFactory.class).getConnection()) {
			connection.serverCommands().setConfig(name, value);
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class MeterRegistryConfiguration {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
