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

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.task.SimpleAsyncTaskExecutorBuilder;
import org.springframework.boot.task.ThreadPoolTaskSchedulerBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link LeaseHostThreads}
 * that the auto-configured hosts run on, built by Spring Boot's task builders when they
 * are available. Without them each host makes and stops threads of its own.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@AutoConfiguration(
		afterName = { "org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration",
				"org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration" },
		beforeName = { "dev.lease.autoconfigure.redis.RedisLeaseHostAutoConfiguration",
				"dev.lease.autoconfigure.jdbc.JdbcLeaseHostAutoConfiguration",
				"dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration" })
public final class LeaseHostThreadsAutoConfiguration {

	// Closed by the context after the hosts, which are created after it: its destroy
	// method, close(), is inferred.
	@Bean
	@ConditionalOnMissingBean
	@Conditional(OnTaskBuildersCondition.class)
	LeaseHostThreads leaseHostThreads(ObjectProvider<SimpleAsyncTaskExecutorBuilder> executorBuilder,
			ObjectProvider<ThreadPoolTaskSchedulerBuilder> schedulerBuilder) {
		SimpleAsyncTaskExecutorBuilder executors = executorBuilder.getIfAvailable();
		ThreadPoolTaskSchedulerBuilder schedulers = schedulerBuilder.getIfAvailable();
		// A thread per task, never the application's bounded pool: a waiting take holds
		// its thread for the whole wait, so a pool or a concurrency limit meant for the
		// application's own tasks would queue takes behind takes, and a release behind
		// them.
		SimpleAsyncTaskExecutor executor = (executors != null)
				? executors.threadNamePrefix("lease-task-").concurrencyLimit(null).build() : null;
		ThreadPoolTaskScheduler scheduler = null;
		if (schedulers != null) {
			scheduler = schedulers.threadNamePrefix("lease-scheduling-").build();
			// a cancelled alarm may have been set far ahead: it leaves the queue at once
			scheduler.setRemoveOnCancelPolicy(true);
			scheduler.initialize();
		}
		return new LeaseHostThreads(executor, scheduler);
	}

	static class OnTaskBuildersCondition extends AnyNestedCondition {

		OnTaskBuildersCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnBean(SimpleAsyncTaskExecutorBuilder.class)
		static class ExecutorBuilder {

		}

		@ConditionalOnBean(ThreadPoolTaskSchedulerBuilder.class)
		static class SchedulerBuilder {

		}

	}

}
