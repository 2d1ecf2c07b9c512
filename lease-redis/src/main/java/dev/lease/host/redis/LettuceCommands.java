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

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.LeaseHostException;

/**
 * The host's commands through Lettuce, sent on the connection's asynchronous API and
 * awaited by a wait that an interrupt does not end. Loaded only when Lettuce is on the
 * class path.
 * <p>
 * Lettuce's synchronous API, and Spring's connection over it, throws
 * {@code RedisCommandInterruptedException} when the waiting thread is interrupted; by
 * then the command is written, or queued to be written, on the connection, and Redis runs
 * it. A take is granted or queued, a release made, and the caller is told neither. The
 * command cannot be taken back, nor its answer asked for again afterwards: a grant keeps
 * no trace of the call that made it, so a question sent after it could not tell a grant
 * made by the interrupted take from one its holder held before (a reentrant refusal). So
 * the caller waits for the answer it has coming whatever interrupts arrive meanwhile, and
 * finds its interrupt flag set again once the answer is in. This is what Spring's
 * synchronous call does without the interrupt: the same dispatch and the same wait on the
 * calling thread, bounded by the same command timeout; no round trip and no thread is
 * added. A command that outlives the timeout is cancelled and its outcome is unknown, as
 * before.
 *
 * @author Lease contributors
 */
final class LettuceCommands {

	private LettuceCommands() {
	}

	// The command timeout of a Lettuce factory, which bounds Spring's synchronous calls.
	static long timeoutMillis(RedisConnectionFactory connectionFactory, long otherwise) {
		return (connectionFactory instanceof LettuceConnectionFactory lettuce) ? lettuce.getTimeout() : otherwise;
	}

	static boolean handles(RedisConnection connection) {
		return connection instanceof LettuceConnection;
	}

	static List<Object> evalSha(RedisConnection connection, String sha, byte[][] keys, byte[][] args,
			long timeoutMillis) {
		return await(commands(connection).evalsha(sha, ScriptOutputType.MULTI, keys, args), timeoutMillis);
	}

	static List<Object> eval(RedisConnection connection, byte[] script, byte[][] keys, byte[][] args,
			long timeoutMillis) {
		return await(commands(connection).eval(script, ScriptOutputType.MULTI, keys, args), timeoutMillis);
	}

	// The script through the asynchronous API, its answer awaited by nobody: the future
	// completes on Lettuce's I/O thread. The connection (Spring's handle on the shared
	// native connection, or one of its own) is held until the answer is in. A command
	// the host gave up is cancelled before the failure is answered, as await does: one
	// Lettuce still keeps while it reconnects is then never sent, whenever its own
	// expiry comes.
	static CompletableFuture<List<Object>> evalShaAsync(RedisConnectionFactory connectionFactory,
			RedisLeaseScript script, byte[] key, byte[][] args, long timeoutMillis) {
		RedisConnection connection;
		try {
			connection = connectionFactory.getConnection();
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		RedisClusterAsyncCommands<byte[], byte[]> commands = commands(connection);
		byte[][] keys = RedisLeaseScript.keys(key);
		byte[][] named = script.arguments(key, args);
		AtomicReference<CompletableFuture<List<Object>>> sent = new AtomicReference<>(
				commands.<List<Object>>evalsha(script.sha(), ScriptOutputType.MULTI, keys, named)
					.toCompletableFuture());
		CompletableFuture<List<Object>> answer = sent.get().exceptionallyCompose((ex) -> {
			if (!RedisLeaseScript.isNoScript(ex)) {
				return CompletableFuture.failedFuture(ex);
			}
			CompletableFuture<List<Object>> again = commands
				.<List<Object>>eval(script.source(), ScriptOutputType.MULTI, keys, named)
				.toCompletableFuture();
			sent.set(again);
			return again;
		}).orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).whenComplete((answered, failure) -> {
			if (failure != null) {
				sent.get().cancel(false);
			}
		}).thenApply((answered) -> RedisLeaseScript.checked(key, answered));
		answer.whenComplete((answered, failure) -> connection.close());
		return answer;
	}

	// One SCAN step from the given cursor.
	static RedisGrantReads.ScanStep scan(RedisConnection connection, String cursor, String pattern, int count,
			long timeoutMillis) {
		KeyScanCursor<byte[]> step = await(
				commands(connection).scan(ScanCursor.of(cursor), ScanArgs.Builder.matches(pattern).limit(count)),
				timeoutMillis);
		return new RedisGrantReads.ScanStep(step.getKeys(), step.getCursor());
	}

	// The script on each key, then TIME, all written before the first answer is awaited:
	// the round trips overlap, as in a pipeline; on a cluster each goes to its key's
	// node.
	static RedisGrantReads.Reads evalShaEachThenTime(RedisConnection connection, String sha, List<byte[]> keys,
			byte[] arg, long timeoutMillis) {
		RedisClusterAsyncCommands<byte[], byte[]> commands = commands(connection);
		List<RedisFuture<List<Object>>> answers = keys.stream()
			.map((key) -> commands.<List<Object>>evalsha(sha, ScriptOutputType.MULTI, RedisLeaseScript.keys(key), arg))
			.toList();
		RedisFuture<List<byte[]>> time = commands.time();
		List<List<Object>> answered = answers.stream().map((answer) -> await(answer, timeoutMillis)).toList();
		return new RedisGrantReads.Reads(answered, RedisGrantReads.Reads.micros(await(time, timeoutMillis)));
	}

	static String clientInfo(RedisConnection connection, long timeoutMillis) {
		return await(commands(connection).clientInfo(), timeoutMillis);
	}

	static void publish(RedisConnection connection, byte[] channel, long timeoutMillis) {
		await(commands(connection).publish(channel, new byte[0]), timeoutMillis);
	}

	// WAIT blocks at the server for up to its own timeout, which the caller's wait
	// covers.
	static Long waitForReplicas(RedisConnection connection, int replicas, long replicaTimeoutMillis,
			long timeoutMillis) {
		return await(commands(connection).waitForReplication(replicas, replicaTimeoutMillis),
				replicaTimeoutMillis + timeoutMillis);
	}

	private static RedisClusterAsyncCommands<byte[], byte[]> commands(RedisConnection connection) {
		return ((LettuceConnection) connection).getNativeConnection();
	}

	// The answer, awaited whatever interrupts arrive meanwhile.
	static <T> T await(Future<T> future, long timeoutMillis) {
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
		boolean interrupted = false;
		try {
			while (true) {
				try {
					return future.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
				catch (ExecutionException ex) {
					Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
					throw (cause instanceof RuntimeException runtime) ? runtime
							: new LeaseHostException("Redis failed to answer", cause);
				}
				catch (TimeoutException ex) {
					future.cancel(true);
					throw new LeaseHostException("Redis did not answer within " + timeoutMillis + " ms", ex);
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
