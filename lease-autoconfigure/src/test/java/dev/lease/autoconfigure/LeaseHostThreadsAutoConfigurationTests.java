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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskDecorator;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.autoconfigure.jdbc.JdbcLeaseHostAutoConfiguration;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.host.jdbc.JdbcLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeaseHostThreadsAutoConfiguration}.
 *
 * @author Lease contributors
 */
class LeaseHostThreadsAutoConfigurationTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class,
				TaskSchedulingAutoConfiguration.class, DataSourceAutoConfiguration.class,
				LeaseHostThreadsAutoConfiguration.class, JdbcLeaseHostAutoConfiguration.class,
				InMemoryLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class))
		.withUserConfiguration(RecordingTaskDecoratorConfiguration.class)
		.withPropertyValues("spring.datasource.generate-unique-name=true");

	@Test
	void runWithTaskBuildersGivesTheHostsThreadsAndKeepsTheApplicationTaskExecutor() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(LeaseHostThreads.class)
			.hasBean("applicationTaskExecutor")
			.hasSingleBean(JdbcLeaseHost.class));
	}

	@Test
	void jdbcHostRunsItsBlockingWorkOnTheContextsExecutorThroughTheTaskDecorator() {
		this.runner.run((context) -> {
			LeaseHost host = context.getBean(LeaseHost.class);
			LeaseKey key = LeaseKey.of("threads-" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
			assertThat(host.async().tryTake(key, holder, TERM).get(30, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
			assertThat(names(context.getBean(RecordingTaskDecorator.class).threads))
				.anyMatch((name) -> name.startsWith("lease-task-"));
		});
	}

	@Test
	void jdbcHostRunsItsTimersOnTheContextsScheduler() {
		this.runner.withPropertyValues("lease.jdbc.cleanup-interval=10ms").run((context) -> {
			RecordingTaskDecorator decorator = context.getBean(RecordingTaskDecorator.class);
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(names(decorator.threads))
					.anyMatch((name) -> name.startsWith("lease-scheduling-")));
		});
	}

	@Test
	void inMemoryHostSetsItsWaitersAlarmsOnTheContextsScheduler() {
		this.runner.withPropertyValues("lease.host=memory").run((context) -> {
			assertThat(context).hasSingleBean(InMemoryLeaseHost.class);
			LeaseHost host = context.getBean(LeaseHost.class);
			LeaseKey key = LeaseKey.of("threads-" + UUID.randomUUID());
			assertThat(host.take(key, LeaseHolder.of("first-" + UUID.randomUUID()), Duration.ofMillis(50)))
				.isInstanceOf(Taken.class);
			// nobody releases: only the alarm at the first grant's instant hands the key
			// on
			CompletableFuture<TakeResult> waiting = host.async()
				.take(key, LeaseHolder.of("second-" + UUID.randomUUID()), TERM);
			assertThat(waiting.get(30, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
			assertThat(names(context.getBean(RecordingTaskDecorator.class).threads))
				.anyMatch((name) -> name.startsWith("lease-scheduling-"));
		});
	}

	@Test
	void runWithVirtualThreadsEnabledRunsTheHostsBlockingWorkOnVirtualThreads() {
		Assumptions.assumeTrue(Runtime.version().feature() >= 21,
				"virtual threads, and spring.threads.virtual.enabled, need Java 21 or later");
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			LeaseHost host = context.getBean(LeaseHost.class);
			LeaseKey key = LeaseKey.of("threads-" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
			assertThat(host.async().tryTake(key, holder, TERM).get(30, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
			List<Thread> threads = context.getBean(RecordingTaskDecorator.class).threads;
			assertThat(threads).filteredOn((thread) -> thread.getName().startsWith("lease-task-"))
				.isNotEmpty()
				.allMatch(LeaseHostThreadsAutoConfigurationTests::isVirtual);
		});
	}

	@Test
	void closingTheContextShutsDownTheHostsScheduler() {
		ScheduledExecutorService[] scheduler = new ScheduledExecutorService[1];
		this.runner.run((context) -> {
			scheduler[0] = context.getBean(LeaseHostThreads.class).scheduler();
			assertThat(scheduler[0]).isNotNull();
			assertThat(scheduler[0].isShutdown()).isFalse();
		});
		assertThat(scheduler[0].isShutdown()).isTrue();
	}

	@Test
	void runWithUserLeaseHostThreadsBacksOff() {
		this.runner.withBean("userThreads", LeaseHostThreads.class, () -> new LeaseHostThreads(null, null))
			.run((context) -> assertThat(context).hasSingleBean(LeaseHostThreads.class).hasBean("userThreads"));
	}

	@Test
	void runWithoutTaskBuildersLeavesTheHostsTheirOwnThreads() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LeaseHostThreadsAutoConfiguration.class,
					InMemoryLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LeaseHostThreads.class)
				.hasSingleBean(InMemoryLeaseHost.class));
	}

	private static List<String> names(List<Thread> threads) {
		return threads.stream().map(Thread::getName).toList();
	}

	// Thread.isVirtual() is Java 21; the main build compiles for Java 17.
	private static boolean isVirtual(Thread thread) {
		try {
			return (boolean) Thread.class.getMethod("isVirtual").invoke(thread);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class RecordingTaskDecoratorConfiguration {

		@Bean
		RecordingTaskDecorator recordingTaskDecorator() {
			return new RecordingTaskDecorator();
		}

	}

	static class RecordingTaskDecorator implements TaskDecorator {

		final List<Thread> threads = new CopyOnWriteArrayList<>();

		@Override
		public Runnable decorate(Runnable runnable) {
			return () -> {
				this.threads.add(Thread.currentThread());
				runnable.run();
			};
		}

	}

}
