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

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

import org.jspecify.annotations.Nullable;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import dev.lease.host.HostBuilder;

/**
 * The threads that the application context gives the lease hosts it builds: an executor
 * that starts a thread per task (virtual threads when
 * {@code spring.threads.virtual.enabled=true}) and a scheduler, both built by Spring
 * Boot's task builders, so that the application's {@code TaskDecorator} runs around the
 * hosts' work. Stopped when the context closes, after the hosts that used them.
 * <p>
 * Deliberately neither an {@link Executor} nor a {@code TaskScheduler}: a bean of those
 * types would make Spring Boot back off from the application's own task executor and
 * scheduler.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseHostThreads implements AutoCloseable {

	private final @Nullable SimpleAsyncTaskExecutor executor;

	private final @Nullable ThreadPoolTaskScheduler scheduler;

	/**
	 * Create an instance.
	 * @param executor the executor for the hosts' work that may block, or {@code null}
	 * for threads of each host's own
	 * @param scheduler the scheduler for the hosts' timers, initialized, or {@code null}
	 * for a thread of each host's own
	 */
	public LeaseHostThreads(@Nullable SimpleAsyncTaskExecutor executor, @Nullable ThreadPoolTaskScheduler scheduler) {
		this.executor = executor;
		this.scheduler = scheduler;
	}

	/**
	 * Return the executor for the hosts' work that may block.
	 * @return the executor, or {@code null} if each host makes its own threads
	 */
	public @Nullable Executor executor() {
		return this.executor;
	}

	/**
	 * Return the scheduler for the hosts' timers.
	 * @return the scheduler, or {@code null} if each host makes its own thread
	 */
	public @Nullable ScheduledExecutorService scheduler() {
		return (this.scheduler != null) ? this.scheduler.getScheduledExecutor() : null;
	}

	/**
	 * Give a host's builder these threads.
	 * @param <B> the builder's type
	 * @param builder the builder
	 * @return the builder
	 */
	public <B extends HostBuilder<B>> B applyTo(B builder) {
		if (this.executor != null) {
			builder.executor(this.executor);
		}
		if (this.scheduler != null) {
			builder.scheduler(this.scheduler.getScheduledExecutor());
		}
		return builder;
	}

	/**
	 * Stop the executor and the scheduler. The context closes the hosts first, and they
	 * have cancelled their work by then: a host's bean is created after this one, which
	 * it asks for while it is built, and the context destroys beans in the reverse order.
	 */
	@Override
	public void close() {
		if (this.executor != null) {
			this.executor.close();
		}
		if (this.scheduler != null) {
			this.scheduler.destroy();
		}
	}

}
