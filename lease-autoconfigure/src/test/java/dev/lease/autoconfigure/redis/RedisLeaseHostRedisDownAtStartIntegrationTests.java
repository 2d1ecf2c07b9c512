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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseConfigurationFailureAnalyzer;
import dev.lease.autoconfigure.health.LeaseHostHealthContributorAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.health.LeaseHostHealthIndicator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link RedisLeaseHostAutoConfiguration} when Redis does not answer at
 * start-up (a closed port): the application starts, the {@code lease} health indicator
 * reports the host down with the reason, every operation throws
 * {@link LeaseHostException}, and once a server listens on that port the same host works
 * without a restart. With {@code lease.redis.require-durable} the start needs an answer
 * Redis cannot give, so it fails with a report naming the property.
 *
 * @author Lease contributors
 */
class RedisLeaseHostRedisDownAtStartIntegrationTests {

	private final String prefix = "down-" + UUID.randomUUID() + ":";

	private ApplicationContextRunner runner(int port) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					RedisLeaseHostAutoConfiguration.class, InMemoryLeaseHostAutoConfiguration.class,
					LeaseAutoConfiguration.class, LeaseHostHealthContributorAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + port,
					"spring.data.redis.timeout=2s", "spring.data.redis.connect-timeout=1s",
					"lease.redis.key-prefix=" + this.prefix, "lease.redis.durability-check-interval=200ms");
	}

	@Test
	void applicationStartsWithRedisDownReportsTheHostDownAndWorksOnceRedisAnswers() throws Exception {
		int port = freePort();
		runner(port).run((context) -> {
			assertThat(context).hasNotFailed();
			LeaseHost host = context.getBean(LeaseHost.class);
			LeaseHostHealthIndicator indicator = context.getBean(LeaseHostHealthIndicator.class);
			Health down = indicator.health();
			assertThat(down.getStatus()).isEqualTo(Status.DOWN);
			assertThat(String.valueOf(down.getDetails().get("error"))).contains(LeaseHostException.class.getName());
			assertThat(down.getDetails()).containsEntry("host", "redis");
			assertThat(String.valueOf(down.getDetails().get("durability"))).contains("UNKNOWN")
				.contains("could not be reached");
			LeaseKey key = LeaseKey.of("down-" + UUID.randomUUID());
			LeaseHolder first = LeaseHolder.of("first-" + UUID.randomUUID());
			LeaseHolder second = LeaseHolder.of("second-" + UUID.randomUUID());
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.tryTake(key, first, Duration.ofSeconds(30)));
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.take(key, first, Duration.ofSeconds(1)));
			assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> host.release(key, first));
			Process server = startRedis(port);
			try {
				await().atMost(Duration.ofSeconds(30))
					.untilAsserted(() -> assertThat(indicator.health().getStatus()).isEqualTo(Status.UP));
				await().atMost(Duration.ofSeconds(30))
					.untilAsserted(() -> assertThat(String.valueOf(indicator.health().getDetails().get("durability")))
						.doesNotContain("could not be reached"));
				assertThat(host.tryTake(key, first, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
				// the handoff subscription stands, and a waiter gets the key at the
				// release
				assertThat(subscribers(port, this.prefix + "handoff")).isOne();
				CompletableFuture<TakeResult> waiter = CompletableFuture
					.supplyAsync(() -> takeQuietly(host, key, second, Duration.ofSeconds(20)));
				assertThat(host.release(key, first)).isInstanceOf(Released.class);
				assertThat(waiter.get(15, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
				assertThat(host.release(key, second)).isInstanceOf(Released.class);
			}
			finally {
				stop(server);
			}
		});
	}

	@Test
	void requireDurableWithRedisDownFailsTheStartWithAReportNamingTheProperty() {
		runner(freePort()).withPropertyValues("lease.redis.require-durable=true").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new LeaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("lease.redis.require-durable")
				.contains("could not be reached");
			assertThat(analysis.getAction()).contains("lease.redis.require-durable=false");
		});
	}

	private static TakeResult takeQuietly(LeaseHost host, LeaseKey key, LeaseHolder holder, Duration duration) {
		try {
			return host.take(key, holder, duration);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	// A redis-server of this test's own on the given port, without persistence; stopped
	// by its PID.
	private static Process startRedis(int port) throws IOException {
		Process process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
				"--save", "", "--appendonly", "no")
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> listening(port));
		return process;
	}

	private static void stop(Process process) throws InterruptedException {
		ProcessHandle.of(process.pid()).ifPresent(ProcessHandle::destroy);
		if (!process.waitFor(10, TimeUnit.SECONDS)) {
			ProcessHandle.of(process.pid()).ifPresent(ProcessHandle::destroyForcibly);
		}
	}

	private static boolean listening(int port) {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static long subscribers(int port, String channel) {
		RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", port));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			return connection.sync().pubsubNumsub(channel).getOrDefault(channel, 0L);
		}
		finally {
			client.shutdown();
		}
	}

}
