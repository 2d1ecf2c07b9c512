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

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * The threads of one host: an {@link Executor} for work that may block (a threaded
 * asynchronous take, a withdrawal, a connection lent by an instant) and a
 * {@link ScheduledExecutorService} for timers (alarms, sweeps, durability checks), each
 * the application's when given, else the host's own. Everything started here is cancelled
 * by {@link #close()}; the host's own executors are shut down too, the application's
 * never are.
 * <p>
 * A loop that runs for the host's whole life (a {@code LISTEN} connection, a blocking
 * subscription) gets a thread of the host's own from {@link #startLoop}, never one of the
 * application's executor: a bounded executor (Boot's default task executor keeps eight
 * threads and queues the rest) could hold it queued behind the very waiters it wakes.
 * This is the one place that makes a thread; each is a daemon named {@code lease-…}.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class HostThreads implements AutoCloseable {

	private final String name;

	private final Executor executor;

	private final @Nullable ExecutorService ownExecutor;

	private final ScheduledExecutorService scheduler;

	private final @Nullable ScheduledExecutorService ownScheduler;

	private final Set<Future<?>> started = ConcurrentHashMap.newKeySet();

	private final Set<ExecutorService> timers = ConcurrentHashMap.newKeySet();

	private volatile boolean closed;

	/**
	 * Create an instance.
	 * @param name the host's name in its own threads' names, such as {@code redis}
	 * @param executor the application's executor for work that may block, or {@code null}
	 * for threads of the host's own; it must start a task without waiting for another to
	 * end (an unbounded pool, or a thread per task such as virtual threads), because a
	 * waiting take holds its thread for the whole wait
	 * @param scheduler the application's scheduler for timers, or {@code null} for a
	 * thread of the host's own
	 */
	public HostThreads(String name, @Nullable Executor executor, @Nullable ScheduledExecutorService scheduler) {
		this.name = name;
		this.ownExecutor = (executor != null) ? null : new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60,
				TimeUnit.SECONDS, new SynchronousQueue<>(), factory("lease-" + name + "-"));
		this.executor = (executor != null) ? executor : this.ownExecutor;
		ScheduledThreadPoolExecutor own = null;
		if (scheduler == null) {
			own = new ScheduledThreadPoolExecutor(1, factory("lease-" + name + "-timer-"));
			own.setRemoveOnCancelPolicy(true);
			// a host that schedules nothing for a while keeps no thread for it
			own.setKeepAliveTime(60, TimeUnit.SECONDS);
			own.allowCoreThreadTimeOut(true);
		}
		this.ownScheduler = own;
		this.scheduler = (scheduler != null) ? scheduler : own;
	}

	/**
	 * Run work that may block, cancelled (interrupted) by {@link #close()} if it has not
	 * ended by then.
	 * @param task the work
	 * @throws RejectedExecutionException if the host is closed or the executor refused
	 * the task
	 */
	public void execute(Runnable task) {
		requireOpen();
		FutureTask<Void> tracked = new FutureTask<>(task, null) {

			@Override
			protected void done() {
				HostThreads.this.started.remove(this);
			}

		};
		this.started.add(tracked);
		try {
			this.executor.execute(tracked);
		}
		catch (RuntimeException ex) {
			this.started.remove(tracked);
			throw ex;
		}
	}

	/**
	 * Answer this as an {@link Executor}: each task {@link #execute run} as above.
	 * @return the executor
	 */
	public Executor executor() {
		return this::execute;
	}

	/**
	 * Run a task once after a delay, cancelled by {@link #close()} if it has not run by
	 * then.
	 * @param task the task
	 * @param delay the delay
	 * @param unit the delay's unit
	 * @return the scheduled task
	 * @throws RejectedExecutionException if the host is closed or the scheduler refused
	 * the task
	 */
	public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
		requireOpen();
		Future<?>[] self = new Future<?>[1];
		ScheduledFuture<?> scheduled = this.scheduler.schedule(() -> {
			try {
				task.run();
			}
			finally {
				forget(self[0]);
			}
		}, delay, unit);
		return track(scheduled, self);
	}

	/**
	 * Run a task again and again, with a delay between one run's end and the next run,
	 * until {@link #close()} or the answered future is cancelled.
	 * @param task the task
	 * @param initialDelay the delay before the first run
	 * @param delay the delay between runs
	 * @param unit the delays' unit
	 * @return the scheduled task
	 * @throws RejectedExecutionException if the host is closed or the scheduler refused
	 * the task
	 */
	public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, long initialDelay, long delay, TimeUnit unit) {
		requireOpen();
		return track(this.scheduler.scheduleWithFixedDelay(task, initialDelay, delay, unit), new Future<?>[1]);
	}

	private ScheduledFuture<?> track(ScheduledFuture<?> scheduled, Future<?>[] self) {
		self[0] = scheduled;
		this.started.add(scheduled);
		if (scheduled.isDone() || this.closed) {
			// ran (or was cancelled) before it was tracked, or the host closed meanwhile
			forget(scheduled);
			if (this.closed) {
				scheduled.cancel(false);
			}
		}
		return scheduled;
	}

	private void forget(@Nullable Future<?> future) {
		if (future != null) {
			this.started.remove(future);
		}
	}

	/**
	 * Start a loop that runs for the host's whole life on a thread of the host's own,
	 * named {@code lease-<host>-<role>}; the loop ends itself when its owner stops it.
	 * @param role the loop's role in the thread's name
	 * @param loop the loop
	 * @return the started thread
	 */
	public Thread startLoop(String role, Runnable loop) {
		requireOpen();
		Thread thread = factory("lease-" + this.name + "-" + role).newThread(loop);
		thread.start();
		return thread;
	}

	/**
	 * Answer a timer of the host's own with one thread, named
	 * {@code lease-<host>-<role>}, for steps that must run one at a time on one thread in
	 * the order given (a state touched by that thread only); shut down by
	 * {@link #close()}. An application's scheduler may run tasks on several threads.
	 * @param role the timer's role in its thread's name
	 * @return the timer
	 */
	public ScheduledThreadPoolExecutor confinedTimer(String role) {
		requireOpen();
		ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1,
				factory("lease-" + this.name + "-" + role));
		timer.setRemoveOnCancelPolicy(true);
		this.timers.add(timer);
		return timer;
	}

	/**
	 * Cancel everything started here that has not ended, interrupting work under way, and
	 * shut down the host's own executors; an application's are left running.
	 */
	@Override
	public void close() {
		this.closed = true;
		this.started.forEach((future) -> future.cancel(true));
		this.started.clear();
		if (this.ownExecutor != null) {
			this.ownExecutor.shutdown();
		}
		if (this.ownScheduler != null) {
			this.ownScheduler.shutdownNow();
		}
		this.timers.forEach(ExecutorService::shutdownNow);
	}

	private void requireOpen() {
		if (this.closed) {
			throw new RejectedExecutionException("The lease host is closed");
		}
	}

	// Daemon threads named so: names that end with '-' get a count. The one place in the
	// host kit that makes threads.
	static ThreadFactory factory(String name) {
		ThreadFactory threads = Executors.defaultThreadFactory();
		boolean counted = name.endsWith("-");
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = threads.newThread(task);
			thread.setName(counted ? name + count.incrementAndGet() : name);
			thread.setDaemon(true);
			return thread;
		};
	}

}
