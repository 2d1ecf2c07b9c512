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

package dev.lease;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A blocking host's questions answered on an executor's threads (see
 * {@link AsyncLeaseHost#onThreads(LeaseHost, Executor)}).
 *
 * @author Lease contributors
 */
final class ThreadedAsyncLeaseHost implements AsyncLeaseHost {

	private final LeaseHost host;

	// A waiting take holds its thread for the whole wait: the executor must start each
	// task without waiting for another to end, or takes would queue behind takes, out of
	// the host's arrival order, and a release behind them.
	private final Executor executor;

	ThreadedAsyncLeaseHost(LeaseHost host, Executor executor) {
		this.host = host;
		this.executor = executor;
	}

	@Override
	public CompletableFuture<TakeResult> take(LeaseKey key, LeaseHolder holder, Duration duration) {
		CompletableFuture<TakeResult> answer = new CompletableFuture<>();
		AtomicBoolean hostAnswered = new AtomicBoolean();
		Taker taker = new Taker(() -> {
			if (answer.isDone()) {
				return;
			}
			try {
				TakeResult result = this.host.take(key, holder, duration);
				hostAnswered.set(true);
				if (!answer.complete(result) && result instanceof Taken) {
					// cancelled while the grant was being made: give it back (as an
					// interrupted take does)
					this.host.release(key, holder);
				}
			}
			catch (InterruptedException ex) {
				// only a cancellation interrupts this thread, and the host withdrew us
				hostAnswered.set(true);
				answer.cancel(false);
			}
			catch (Throwable ex) {
				hostAnswered.set(true);
				answer.completeExceptionally(ex);
			}
		});
		try {
			this.executor.execute(taker);
		}
		catch (RejectedExecutionException ex) {
			return CompletableFuture.failedFuture(new LeaseHostException("The take was refused a thread", ex));
		}
		answer.whenComplete((result, failure) -> {
			if (!hostAnswered.get()) {
				taker.withdraw();
			}
		});
		return answer;
	}

	@Override
	public CompletableFuture<TryTakeResult> tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		return other(() -> this.host.tryTake(key, holder, duration));
	}

	@Override
	public CompletableFuture<Optional<Duration>> remaining(LeaseKey key, LeaseHolder holder) {
		return other(() -> this.host.remaining(key, holder));
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LeaseKey key, LeaseHolder holder) {
		return other(() -> this.host.release(key, holder));
	}

	@Override
	public CompletableFuture<GrantsPage> grants(@Nullable String cursor, int limit) {
		return other(() -> this.host.grants(cursor, limit));
	}

	private <T> CompletableFuture<T> other(Supplier<T> question) {
		try {
			return CompletableFuture.supplyAsync(question, this.executor);
		}
		catch (RejectedExecutionException ex) {
			return CompletableFuture.failedFuture(new LeaseHostException("The question was refused a thread", ex));
		}
	}

	/**
	 * An executor that starts a thread for each task, a daemon named
	 * {@code lease-async-…} that ends with its task: what a host that was given no
	 * executor answers on, with no pool left behind it.
	 * @return the executor
	 */
	static Executor threadPerTask() {
		ThreadFactory threads = Executors.defaultThreadFactory();
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = threads.newThread(task);
			thread.setName("lease-async-" + count.incrementAndGet());
			thread.setDaemon(true);
			thread.start();
		};
	}

	/**
	 * One take on an executor's thread. Cancelled (or completed by anyone but the host)
	 * before the host answered, it is withdrawn: not started at all, or interrupted,
	 * which withdraws it, and the canceller waits for that, so that nothing stands for it
	 * once cancel returns, as after an interrupted blocking take.
	 */
	private static final class Taker implements Runnable {

		private final Runnable take;

		private final AtomicBoolean claimed = new AtomicBoolean();

		private final CompletableFuture<Void> finished = new CompletableFuture<>();

		private @Nullable Thread runner;

		Taker(Runnable take) {
			this.take = take;
		}

		@Override
		public void run() {
			if (!this.claimed.compareAndSet(false, true)) {
				return;
			}
			synchronized (this) {
				this.runner = Thread.currentThread();
			}
			try {
				this.take.run();
			}
			finally {
				synchronized (this) {
					this.runner = null;
				}
				// an interrupt meant for the take is not left to the executor's thread
				Thread.interrupted();
				this.finished.complete(null);
			}
		}

		void withdraw() {
			if (this.claimed.compareAndSet(false, true)) {
				return;
			}
			synchronized (this) {
				if (this.runner == Thread.currentThread()) {
					return;
				}
				if (this.runner != null) {
					this.runner.interrupt();
				}
			}
			// join waits through interrupts, and sets a pending one again once it returns
			this.finished.join();
		}

	}

}
