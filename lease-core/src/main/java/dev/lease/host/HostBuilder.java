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

package dev.lease.host;

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

import org.jspecify.annotations.Nullable;

/**
 * What every host's builder is told about threads: the application's executor and
 * scheduler, which the host uses and never shuts down ({@link HostThreads}).
 *
 * @param <B> the host's builder
 * @author Lease contributors
 * @since 0.1.0
 */
public abstract class HostBuilder<B extends HostBuilder<B>> {

	private @Nullable Executor executor;

	private @Nullable ScheduledExecutorService scheduler;

	/**
	 * Create an instance.
	 */
	protected HostBuilder() {
	}

	/**
	 * Run the host's work that may block (asynchronous takes served on threads, which
	 * hold one for the whole wait, withdrawals, connections lent by an instant,
	 * subscriptions) on the application's executor. It must start each task without
	 * waiting for another to end: a thread per task (virtual threads) or an unbounded
	 * pool. Without it the host makes daemon threads of its own, {@code lease-…}, stopped
	 * when it closes. A loop that lives as long as the host keeps a thread of the host's
	 * own either way.
	 * @param executor the executor, which the host never shuts down
	 * @return this builder
	 */
	public B executor(Executor executor) {
		this.executor = HostArguments.notNull(executor, "executor");
		return self();
	}

	/**
	 * Run the host's timers (alarms, clean-ups, durability checks) on the application's
	 * scheduler; the host cancels them there when it closes. Without it the host makes a
	 * daemon thread of its own, {@code lease-…-timer-…}, stopped when it closes.
	 * @param scheduler the scheduler, which the host never shuts down
	 * @return this builder
	 */
	public B scheduler(ScheduledExecutorService scheduler) {
		this.scheduler = HostArguments.notNull(scheduler, "scheduler");
		return self();
	}

	/**
	 * Return the threads of a host being built, for the host, which closes them when it
	 * closes.
	 * @param name the host's name in its own threads' names
	 * @return the host's threads
	 */
	public HostThreads threads(String name) {
		return new HostThreads(name, this.executor, this.scheduler);
	}

	@SuppressWarnings("unchecked")
	private B self() {
		return (B) this;
	}

}
