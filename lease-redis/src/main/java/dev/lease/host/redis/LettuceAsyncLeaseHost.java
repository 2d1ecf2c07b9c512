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
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.AsyncLeaseHost;
import dev.lease.GrantsPage;
import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.ReentrantTakeException;
import dev.lease.ReleaseResult;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.host.HostArguments;
import dev.lease.host.HostThreads;
import dev.lease.host.Wakeups;
import dev.lease.host.redis.RedisScriptAnswer.Granted;
import dev.lease.host.redis.RedisScriptAnswer.TryTakeAnswer;

/**
 * A {@link RedisLeaseHost}'s questions through Lettuce's asynchronous API: each sends the
 * script and returns, and no question holds a thread while Redis answers. A waiting take
 * is registered with the host's {@link Wakeups} like a blocking waiter, and asks again,
 * asynchronously, when a wake-up names it (a message, a release made here, a
 * re-subscription) or its instant comes on the host's one timer thread
 * ({@link LettuceAsyncTake}). A try take, remaining and release are one script call each,
 * read by {@link RedisScriptAnswer} as the blocking calls read them: a release that hands
 * the key on wakes this JVM's waiter at once, and a grant the server was found not
 * durable for is given back. A call refused while its key's cluster slot moves is asked
 * again on the timer thread, within the window the blocking call has
 * ({@link RedisMigrations}).
 * <p>
 * A question that would block first goes to a thread ({@link AsyncLeaseHost#onThreads}):
 * before the host has started (its script loaded, its subscription made), and a take
 * while a required durability must be read again. Listing grants always does. Only with
 * no replicas to acknowledge: a grant confirmed by {@code WAIT} holds its connection, and
 * such a host answers on threads.
 *
 * @author Lease contributors
 */
final class LettuceAsyncLeaseHost implements AsyncLeaseHost {

	private static final Log logger = LogFactory.getLog(LettuceAsyncLeaseHost.class);

	private final RedisLeaseHost host;

	private final AsyncLeaseHost others;

	private final RedisLeaseStore store;

	private final Wakeups<String, String> wakeups;

	// The one thread of the host's waiting takes: their timers, and every step of
	// theirs, so that each take's state is touched by this thread only; and the pauses
	// of calls asked again while a slot moves.
	private final ScheduledThreadPoolExecutor timer;

	// for the rare confirmation that blocks: a grant given back, or replicas awaited
	private final Executor executor;

	LettuceAsyncLeaseHost(RedisLeaseHost host, RedisLeaseStore store, Wakeups<String, String> wakeups,
			HostThreads threads) {
		this.host = host;
		this.others = AsyncLeaseHost.onThreads(host, threads.executor());
		this.store = store;
		this.wakeups = wakeups;
		// one thread, of the host's own: each take's state is touched by it only
		this.timer = threads.confinedTimer("async-takes");
		this.executor = threads.executor();
	}

	// The host's non-blocking view: this one through Lettuce with no replicas to
	// acknowledge, else its questions answered on threads.
	static AsyncLeaseHost orOnThreads(RedisLeaseHost host, int replicasToAck, RedisLeaseStore store,
			Wakeups<String, String> wakeups, HostThreads threads) {
		RedisConnectionFactory connectionFactory = store.connectionFactory();
		if (replicasToAck != 0 || !RedisLeaseStore.lettucePresent || !LettuceReconnections.handles(connectionFactory)) {
			return AsyncLeaseHost.onThreads(host, threads.executor());
		}
		if (!((LettuceConnectionFactory) connectionFactory).getShareNativeConnection()) {
			// A cancelled take's withdrawal must go out on the connection its script did.
			logger.info("The Redis lease host's non-blocking takes wait on threads: the Lettuce connection factory"
					+ " does not share its native connection (shareNativeConnection=false), whose order withdrawing"
					+ " a cancelled take relies on");
			return AsyncLeaseHost.onThreads(host, threads.executor());
		}
		return new LettuceAsyncLeaseHost(host, store, wakeups, threads);
	}

	@Override
	public CompletableFuture<TakeResult> take(LeaseKey key, LeaseHolder holder, Duration duration) {
		RedisLeaseParts parts;
		try {
			RedisLeaseHost.ARGUMENTS.requireTake(key, holder, duration);
			if (!this.host.readyWithoutBlocking(true)) {
				return this.others.take(key, holder, duration);
			}
			parts = this.host.beforeTake(key, holder, duration);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		LettuceAsyncTake take = new LettuceAsyncTake(this, key, holder, duration);
		// Its first question is sent once a message about the key reaches this host (its
		// slot's subscription, where handoffs are sharded), or after a second, when it
		// asks on its own.
		CompletableFuture<Void> subscribed = parts.subscription().waiting(this.store.redisKey(key));
		if (subscribed.isDone()) {
			take.start();
		}
		else {
			subscribed.orTimeout(RedisHandoffSubscription.FIRST_QUESTION_WAIT_MILLIS, TimeUnit.MILLISECONDS)
				.whenComplete((done, failure) -> take.start());
		}
		return take.answer();
	}

	@Override
	public CompletableFuture<TryTakeResult> tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		byte[] redisKey;
		try {
			RedisLeaseHost.ARGUMENTS.requireTake(key, holder, duration);
			if (!this.host.readyWithoutBlocking(true)) {
				return this.others.tryTake(key, holder, duration);
			}
			this.host.beforeTake(key, holder, duration);
			redisKey = this.store.redisKey(key);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		return run("try_take", redisKey, RedisScriptArguments.tryTakeArguments(holder, duration))
			.thenCompose((answered) -> {
				TryTakeAnswer answer = RedisScriptAnswer.tryTake(answered);
				if (answer instanceof Granted granted) {
					return confirmed(redisKey, new Lease(key, holder, granted.instant()));
				}
				if (answer instanceof RedisScriptAnswer.Refused) {
					return CompletableFuture.completedFuture(new Held());
				}
				throw new ReentrantTakeException(key, holder);
			});
	}

	// What RedisLeaseStore.confirm() does with no replicas to acknowledge: a grant the
	// server was found not durable for while it was made is given back.
	private CompletableFuture<TryTakeResult> confirmed(byte[] redisKey, Lease lease) {
		LeaseHostException refusal = this.store.refusal();
		if (refusal == null) {
			return CompletableFuture.completedFuture(new Taken(lease));
		}
		return release(redisKey, lease.holder())
			.handle((released, failure) -> CompletableFuture.<TryTakeResult>failedFuture(refusal))
			.thenCompose(Function.identity());
	}

	@Override
	public CompletableFuture<Optional<Duration>> remaining(LeaseKey key, LeaseHolder holder) {
		return ask(key, holder, () -> this.others.remaining(key, holder),
				(redisKey) -> run("remaining", redisKey, RedisScriptArguments.remainingArguments(holder))
					.thenApply((answered) -> Optional.ofNullable(RedisScriptAnswer.remaining(answered))));
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LeaseKey key, LeaseHolder holder) {
		return ask(key, holder, () -> this.others.release(key, holder), (redisKey) -> release(redisKey, holder)
			.thenApply((released) -> released ? new Released() : new NotHeld()));
	}

	// A question of a key and a holder: checked, then asked of the server, or on a thread
	// while the host is not ready to ask without blocking.
	private <T> CompletableFuture<T> ask(LeaseKey key, LeaseHolder holder, Supplier<CompletableFuture<T>> onThread,
			Function<byte[], CompletableFuture<T>> ofServer) {
		byte[] redisKey;
		try {
			HostArguments.requireKeyAndHolder(key, holder);
			if (!this.host.readyWithoutBlocking(false)) {
				return onThread.get();
			}
			redisKey = this.store.redisKey(key);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		return ofServer.apply(redisKey);
	}

	// Whether the holder's grant ended; the waiter of this JVM it was handed on to wakes
	// at once, as at a blocking release made here.
	CompletableFuture<Boolean> release(byte[] redisKey, LeaseHolder holder) {
		return run("release", redisKey, RedisScriptArguments.releaseArguments(holder))
			.thenApply((answered) -> this.store.ended(redisKey, answered));
	}

	// Listing a page reads SCAN and then each key found: on a thread.
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

	Executor executor() {
		return this.executor;
	}

	// One question of the script that is not a waiter's, sent without waiting, answered
	// within the command timeout.
	private CompletableFuture<List<Object>> run(String operation, byte[] redisKey, byte[][] args) {
		return run(operation, redisKey, args, this.store.script().shortRetryNanos(),
				System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(this.store.commandTimeoutMillis()));
	}

	// One question of a waiter (take, ask, settle), asked again while the slot moves for
	// as long as a blocking waiter's, answered within the command timeout.
	CompletableFuture<List<Object>> runWaiter(String operation, byte[] redisKey, byte[][] args) {
		return runWaiter(operation, redisKey, args, System.nanoTime() + this.store.script().waiterRetryNanos());
	}

	// As above, answered by answerBy (a System.nanoTime() reading) or failed: a waiter's
	// question gives up on a silent server at its bound plus the answer margin.
	CompletableFuture<List<Object>> runWaiter(String operation, byte[] redisKey, byte[][] args, long answerBy) {
		return run(operation, redisKey, args, this.store.script().waiterRetryNanos(), answerBy);
	}

	// Failures read as the blocking calls report them; a refusal while the key's slot
	// moves is asked again after RedisMigrations' pauses, on the timer thread, until the
	// window ends: windowNanos from now, or answerBy if that comes first.
	private CompletableFuture<List<Object>> run(String operation, byte[] redisKey, byte[][] args, long windowNanos,
			long answerBy) {
		long now = System.nanoTime();
		return send(operation, redisKey, args, now + Math.min(Math.max(0, answerBy - now), windowNanos), answerBy,
				RedisMigrations.FIRST_PAUSE_MILLIS, new CompletableFuture<>());
	}

	// The answer given, completed once the script answers or the window ends.
	private CompletableFuture<List<Object>> send(String operation, byte[] redisKey, byte[][] args, long deadline,
			long answerBy, long pauseMillis, CompletableFuture<List<Object>> answer) {
		long timeoutMillis = Math.min(this.store.commandTimeoutMillis(),
				Math.max(1, TimeUnit.NANOSECONDS.toMillis(answerBy - System.nanoTime())));
		LettuceCommands.evalShaAsync(this.store.connectionFactory(), this.store.script(), redisKey, args, timeoutMillis)
			.whenComplete((answered, failure) -> {
				if (failure == null) {
					answer.complete(answered);
					return;
				}
				Throwable cause = unwrap(failure);
				long left = deadline - System.nanoTime();
				if (left > 0 && RedisMigrations.isMigrating(cause)) {
					try {
						this.timer.schedule(
								() -> send(operation, redisKey, args, deadline, answerBy,
										RedisMigrations.nextPause(pauseMillis), answer),
								Math.min(left, TimeUnit.MILLISECONDS.toNanos(pauseMillis)), TimeUnit.NANOSECONDS);
						return;
					}
					catch (RejectedExecutionException ex) {
						// closed: the refusal stands
					}
				}
				answer.completeExceptionally(this.store.failed(operation, cause));
			});
		return answer;
	}

	private static Throwable unwrap(Throwable ex) {
		return (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
	}

}
