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

package dev.lease.host.redis;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.AsyncLeaseHost;
import dev.lease.GrantsPage;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.TryTakeResult;
import dev.lease.host.Wakeups;

/**
 * A {@link RedisLeaseHost}'s questions through Lettuce's asynchronous API: a take sends
 * the script and returns, and a waiting take holds no thread. It is registered with the
 * host's {@link Wakeups} like a blocking waiter, and asks again, asynchronously, when a
 * wake-up names it (a message, a release made here, a re-subscription) or its instant
 * comes on the host's one timer thread ({@link LettuceAsyncTake}). The other questions
 * never wait for a key and run as {@link AsyncLeaseHost#onThreads} runs them.
 * <p>
 * Only with no replicas to acknowledge: a grant confirmed by {@code WAIT} holds its
 * connection, and such a host answers on threads.
 *
 * @author Lease contributors
 */
final class LettuceAsyncLeaseHost implements AsyncLeaseHost {

	private final RedisLeaseHost host;

	private final AsyncLeaseHost others;

	private final RedisConnectionFactory connectionFactory;

	private final RedisLeaseStore store;

	private final Wakeups<String, String> wakeups;

	// The one thread of the host's waiting takes: their timers, and every step of
	// theirs, so that each take's state is touched by this thread only.
	private final ScheduledThreadPoolExecutor timer;

	LettuceAsyncLeaseHost(RedisLeaseHost host, RedisConnectionFactory connectionFactory, RedisLeaseStore store,
			Wakeups<String, String> wakeups) {
		this.host = host;
		this.others = AsyncLeaseHost.onThreads(host);
		this.connectionFactory = connectionFactory;
		this.store = store;
		this.wakeups = wakeups;
		this.timer = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "lease-redis-async-takes");
			thread.setDaemon(true);
			return thread;
		});
		this.timer.setRemoveOnCancelPolicy(true);
	}

	// The host's non-blocking view: this one through Lettuce with no replicas to
	// acknowledge, else its questions answered on threads.
	static AsyncLeaseHost orOnThreads(RedisLeaseHost host, int replicasToAck, RedisLeaseStore store,
			Wakeups<String, String> wakeups) {
		RedisConnectionFactory connectionFactory = store.connectionFactory();
		return (replicasToAck == 0 && RedisLeaseStore.lettucePresent && LettuceReconnections.handles(connectionFactory))
				? new LettuceAsyncLeaseHost(host, connectionFactory, store, wakeups) : AsyncLeaseHost.onThreads(host);
	}

	@Override
	public CompletableFuture<TakeResult> take(LeaseKey key, LeaseHolder holder, Duration duration) {
		try {
			this.host.beforeTake(key, holder, duration);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		LettuceAsyncTake take = new LettuceAsyncTake(this, key, holder, duration);
		take.start();
		return take.answer();
	}

	@Override
	public CompletableFuture<TryTakeResult> tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		return this.others.tryTake(key, holder, duration);
	}

	@Override
	public CompletableFuture<Optional<Duration>> remaining(LeaseKey key, LeaseHolder holder) {
		return this.others.remaining(key, holder);
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LeaseKey key, LeaseHolder holder) {
		return this.others.release(key, holder);
	}

	@Override
	public CompletableFuture<GrantsPage> grants(@Nullable String cursor, int limit) {
		return this.others.grants(cursor, limit);
	}

	void close() {
		this.timer.shutdownNow();
	}

	RedisLeaseStore store() {
		return this.store;
	}

	Wakeups<String, String> wakeups() {
		return this.wakeups;
	}

	ScheduledThreadPoolExecutor timer() {
		return this.timer;
	}

	// One question of the script, sent without waiting; failures read as the blocking
	// calls report them.
	CompletableFuture<List<Object>> run(String operation, byte[] redisKey, byte[][] args) {
		return LettuceCommands
			.evalShaAsync(this.connectionFactory, this.store.script(), redisKey, args,
					this.store.commandTimeoutMillis())
			.exceptionallyCompose((ex) -> CompletableFuture.failedFuture(this.store.failed(operation, unwrap(ex))));
	}

	// Run a step of a take on the timer thread; a closed host fails it.
	void step(LettuceAsyncTake take, Runnable step) {
		try {
			this.timer.execute(step);
		}
		catch (RejectedExecutionException ex) {
			take.closed(new LeaseHostException("The Redis lease host is closed"));
		}
	}

	private static Throwable unwrap(Throwable ex) {
		return (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
	}

}
