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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnection;

import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseConfigurationFailureAnalyzer;
import dev.lease.autoconfigure.health.LeaseHostHealthContributorAutoConfiguration;
import dev.lease.health.LeaseHostHealthIndicator;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis host's protocol record in a Boot application: a start beside a protocol it
 * cannot work beside fails with a report naming both protocols and what to do; one it
 * works beside starts, and health shows both protocols and goes down when a protocol it
 * cannot work beside is recorded later.
 *
 * @author Lease contributors
 */
class RedisProtocolAutoConfigurationIntegrationTests {

	private static RedisTestServer server;

	private static final List<String> prefixes = new ArrayList<>();

	@BeforeAll
	static void startServer() {
		server = RedisTestServer.start();
	}

	@AfterAll
	static void stopServer() {
		try (RedisConnection connection = server.lettuce().getConnection()) {
			for (String prefix : prefixes) {
				connection.keyCommands().del(bytes(prefix + "protocol"));
			}
		}
		server.close();
	}

	private ApplicationContextRunner runner(String prefix) {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, RedisLeaseHostAutoConfiguration.class,
							LeaseAutoConfiguration.class, LeaseHostHealthContributorAutoConfiguration.class))
			.withPropertyValues(server.properties())
			.withPropertyValues("lease.redis.key-prefix=" + prefix);
	}

	@Test
	void startBesideAProtocolItCannotWorkBesideFailsWithAReport() {
		String prefix = prefix();
		stamp(prefix, "3", "3");
		runner(prefix).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new LeaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("Redis key '" + prefix + "protocol'")
				.contains("records protocol 3 (works beside 3 and later)")
				.contains("this instance speaks protocol 2 (works beside 2 and later)");
			assertThat(analysis.getAction()).contains("deploy that release here too")
				.contains("DEL " + prefix + "protocol");
		});
	}

	@Test
	void healthShowsBothProtocolsAndGoesDownWhenOneItCannotWorkBesideIsRecorded() {
		String prefix = prefix();
		stamp(prefix, "3", "2");
		runner(prefix).run((context) -> {
			assertThat(context).hasNotFailed();
			Health health = context.getBean(LeaseHostHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("protocol", Map.of("speaks", "2 (works beside 2 and later)",
					"recorded", "3 (works beside 2 and later)", "record", "Redis key '" + prefix + "protocol'"));
			stamp(prefix, "4", "4");
			Health down = context.getBean(LeaseHostHealthIndicator.class).health();
			assertThat(down.getStatus()).isEqualTo(Status.DOWN);
			assertThat(down.getDetails()).containsKey("protocol");
			assertThat(String.valueOf(down.getDetails().get("error"))).contains("records protocol 4")
				.contains("this instance speaks protocol 2");
		});
	}

	private static String prefix() {
		String prefix = "protocol-boot-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		prefixes.add(prefix);
		return prefix;
	}

	private static void stamp(String prefix, String version, String since) {
		try (RedisConnection connection = server.lettuce().getConnection()) {
			connection.hashCommands()
				.hMSet(bytes(prefix + "protocol"),
						Map.of(bytes("version"), bytes(version), bytes("works-beside-since"), bytes(since)));
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
