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
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseConfigurationFailureAnalyzer;
import dev.lease.host.redis.RedisLeaseHost;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis host's start-up on a server that restricts commands as managed services do,
 * {@code CONFIG} and {@code WAIT} renamed away: the application starts with durability
 * {@code UNKNOWN} and what to set instead; {@code lease.redis.assume-durable} is the
 * explicit, logged statement {@code require-durable} then accepts; and
 * {@code lease.redis.replicas-to-ack} fails the start with a report naming the missing
 * command.
 *
 * @author Lease contributors
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisRestrictedCommandsAutoConfigurationIntegrationTests {

	private static RedisTestServer server;

	@BeforeAll
	static void startRestrictedServer() {
		server = RedisTestServer.startEmbedded(RedisTestServer.freePort(),
				List.of("rename-command CONFIG \"\"", "rename-command WAIT \"\""));
	}

	@AfterAll
	static void stopRestrictedServer() {
		server.close();
	}

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					RedisLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class))
			.withPropertyValues(server.properties())
			.withPropertyValues("lease.redis.key-prefix=restricted-" + UUID.randomUUID() + ":");
	}

	@Test
	void startsWithDurabilityUnknownNamingWhatToSet(CapturedOutput output) {
		runner().run((context) -> {
			assertThat(context).hasNotFailed();
			RedisLeaseHost host = context.getBean(RedisLeaseHost.class);
			assertThat(host.durability().reason()).contains("CONFIG GET is not available")
				.contains("lease.redis.assume-durable=true");
			assertThat(output).contains("whether the server keeps every grant is unknown")
				.contains("lease.redis.assume-durable=true");
			takeAndRelease(context.getBean(LeaseHost.class));
		});
	}

	@Test
	void requireDurableFailsTheStartWithAReportNamingAssumeDurable() {
		runner().withPropertyValues("lease.redis.require-durable=true").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new LeaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("lease.redis.require-durable")
				.contains("CONFIG GET is not available");
			assertThat(analysis.getAction()).contains("lease.redis.assume-durable=true");
		});
	}

	@Test
	void assumeDurableIsAcceptedByRequireDurableAndLoggedAtStart(CapturedOutput output) {
		runner().withPropertyValues("lease.redis.require-durable=true", "lease.redis.assume-durable=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RedisLeaseHost host = context.getBean(RedisLeaseHost.class);
				assertThat(host.durability().reason()).startsWith("assumed durable (lease.redis.assume-durable=true)");
				assertThat(output.getAll().lines().filter((line) -> line.contains("WARN")))
					.anySatisfy((line) -> assertThat(line).contains("lease.redis.assume-durable=true")
						.contains("CONFIG GET is not available"));
				takeAndRelease(context.getBean(LeaseHost.class));
			});
	}

	@Test
	void replicasToAckFailsTheStartWithAReportNamingTheMissingCommand() {
		runner().withPropertyValues("lease.redis.replicas-to-ack=1").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new LeaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("lease.redis.replicas-to-ack").contains("WAIT");
			assertThat(analysis.getAction()).contains("lease.redis.replicas-to-ack=0");
		});
	}

	private static void takeAndRelease(LeaseHost host) {
		LeaseKey key = LeaseKey.of("restricted-" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
		assertThat(host.tryTake(key, holder, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
		assertThat(host.release(key, holder)).isInstanceOf(Released.class);
	}

}
