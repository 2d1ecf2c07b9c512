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

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A blocking host's questions answered on threads of their own (see
 * {@link AsyncLeaseHost#onThreads(LeaseHost)}).
 *
 * @author Lease contributors
 */
final class ThreadedAsyncLeaseHost implements AsyncLeaseHost {

	// A waiting take holds its thread for the whole wait: a bounded pool would queue
	// takes behind takes, out of the host's arrival order, and a release behind them.
	private static final ThreadFactory TAKES = takeThreads();

	// Questions that never wait for a key: a pool of their own, so that a release
	// always finds a thread however many takes wait.
	private static final ExecutorService OTHERS = Executors.newCachedThreadPool(daemons("lease-async-"));

	private final LeaseHost host;

	ThreadedAsyncLeaseHost(LeaseHost host) {
		this.host = host;
	}

	@Override
	public CompletableFuture<TakeResult> take(LeaseKey key, LeaseHolder holder, Duration duration) {
		CompletableFuture<TakeResult> answer = new CompletableFuture<>();
		AtomicBoolean hostAnswered = new AtomicBoolean();
		Thread taker = TAKES.newThread(() -> {
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
		answer.whenComplete((result, failure) -> {
			if (!hostAnswered.get()) {
				withdraw(taker);
			}
		});
		taker.start();
		return answer;
	}

	// Cancelled (or completed by anyone but the host) before the host answered: the
	// interrupt withdraws the take, and the canceller waits for that, so that nothing
	// stands for it once cancel returns, as after an interrupted blocking take.
	private static void withdraw(Thread taker) {
		if (taker == Thread.currentThread()) {
			return;
		}
		taker.interrupt();
		boolean interrupted = false;
		while (true) {
			try {
				taker.join();
				break;
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
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

	private static <T> CompletableFuture<T> other(Supplier<T> question) {
		return CompletableFuture.supplyAsync(question, OTHERS);
	}

	private static ThreadFactory takeThreads() {
		try {
			// JDK 21 and later: a virtual thread per waiting take costs no platform
			// thread
			Method ofVirtual = Thread.class.getMethod("ofVirtual");
			Object builder = ofVirtual.invoke(null);
			Method name = builder.getClass().getMethod("name", String.class, long.class);
			builder = name.invoke(builder, "lease-async-take-", 0L);
			return (ThreadFactory) builder.getClass().getMethod("factory").invoke(builder);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return daemons("lease-async-take-");
		}
	}

	private static ThreadFactory daemons(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
