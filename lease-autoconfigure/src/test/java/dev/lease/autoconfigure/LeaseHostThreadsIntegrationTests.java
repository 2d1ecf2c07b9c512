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

package dev.lease.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.autoconfigure.jdbc.JdbcLeaseHostAutoConfiguration;
import dev.lease.autoconfigure.redis.RedisLeaseHostAutoConfiguration;
import dev.lease.test.support.JdbcTestServers;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that every thread a host starts ends with the application context that made it:
 * many contexts opened and closed, each taking and waiting, leave no {@code lease-}
 * thread behind.
 *
 * @author Lease contributors
 */
class LeaseHostThreadsIntegrationTests {

	private static final int CONTEXTS = 50;

	private static final Duration TERM = Duration.ofSeconds(30);

	private static RedisTestServer server;

	private static DataSource dataSource;

	private final String tablePrefix = "THREADS_"
			+ UUID.randomUUID().toString().replace("-", "").toUpperCase(Locale.ROOT) + "_";

	@BeforeAll
	static void startServers() {
		server = RedisTestServer.start();
		dataSource = new DriverManagerDataSource(JdbcTestServers.postgresUrl());
	}

	@AfterAll
	static void stopServers() {
		server.close();
	}

	@Test
	void inMemoryHostLeavesNoThreadWhenItsContextsClose() {
		openAndClose(runner().withPropertyValues("lease.host=memory"));
	}

	@Test
	void redisHostLeavesNoThreadWhenItsContextsClose() {
		openAndClose(runner().withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withPropertyValues(server.properties())
			.withPropertyValues("lease.host=redis", "lease.redis.key-prefix=threads-" + UUID.randomUUID() + ":"));
	}

	@Test
	void jdbcHostLeavesNoThreadWhenItsContextsClose() {
		try {
			openAndClose(runner().withBean(DataSource.class, () -> dataSource)
				.withPropertyValues("lease.host=jdbc", "lease.jdbc.initialize-schema=always",
						"lease.jdbc.table-prefix=" + this.tablePrefix));
		}
		finally {
			JdbcTemplate jdbc = new JdbcTemplate(dataSource);
			jdbc.execute("DROP TABLE IF EXISTS " + this.tablePrefix + "WAITERS");
			jdbc.execute("DROP TABLE IF EXISTS " + this.tablePrefix + "KEYS");
		}
	}

	private static ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RedisLeaseHostAutoConfiguration.class,
					JdbcLeaseHostAutoConfiguration.class, InMemoryLeaseHostAutoConfiguration.class,
					LeaseHostThreadsAutoConfiguration.class, LeaseAutoConfiguration.class));
	}

	// Half the contexts have Boot's task executor and scheduler builders, whose threads
	// the context gives the host, half leave the host to make its own threads: either way
	// none outlives the context.
	private static void openAndClose(ApplicationContextRunner runner) {
		// Threads of hosts that other test classes in this JVM left open are not these
		// contexts' to stop.
		Set<Thread> before = leaseThreads();
		for (int i = 0; i < CONTEXTS; i++) {
			boolean given = (i % 2 != 0);
			ApplicationContextRunner withTasks = (!given) ? runner : runner.withConfiguration(
					AutoConfigurations.of(TaskExecutionAutoConfiguration.class, TaskSchedulingAutoConfiguration.class));
			withTasks.run((context) -> {
				assertThat(context).hasNotFailed();
				if (given) {
					startSchedulingThread(context.getBean(LeaseHostThreads.class));
				}
				takeReleaseAndWait(context.getBean(LeaseHost.class));
			});
		}
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			List<Thread> left = leaseThreads().stream().filter((thread) -> !before.contains(thread)).toList();
			assertThat(left).as("threads left, where they are: %s", stacks(left)).map(Thread::getName).isEmpty();
		});
	}

	// The scheduler the context built keeps its thread once started, until it is shut
	// down with the context.
	private static void startSchedulingThread(LeaseHostThreads threads) throws Exception {
		ScheduledExecutorService scheduler = threads.scheduler();
		assertThat(scheduler).isNotNull();
		String name = scheduler.schedule(() -> Thread.currentThread().getName(), 0, TimeUnit.MILLISECONDS)
			.get(30, TimeUnit.SECONDS);
		assertThat(name).startsWith("lease-scheduling-");
	}

	private static void takeReleaseAndWait(LeaseHost host) throws Exception {
		LeaseKey key = LeaseKey.of("threads-" + UUID.randomUUID());
		LeaseHolder first = LeaseHolder.of("first-" + UUID.randomUUID());
		LeaseHolder second = LeaseHolder.of("second-" + UUID.randomUUID());
		assertThat(host.take(key, first, TERM)).isInstanceOf(Taken.class);
		CompletableFuture<TakeResult> waiting = host.async().take(key, second, TERM);
		assertThat(host.release(key, first)).isInstanceOf(Released.class);
		assertThat(waiting.get(30, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
		assertThat(host.async().release(key, second).get(30, TimeUnit.SECONDS)).isInstanceOf(Released.class);
	}

	private static String stacks(List<Thread> threads) {
		return threads.stream()
			.map((thread) -> thread.getName() + " " + List.of(thread.getStackTrace()))
			.collect(Collectors.joining(System.lineSeparator()));
	}

	private static Set<Thread> leaseThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().startsWith("lease-"))
			.collect(Collectors.toSet());
	}

}
