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

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.script.DigestUtils;

import dev.lease.host.KeyModel;

/**
 * The one Lua script that holds the state model ({@code lease.lua} beside this class),
 * called by its SHA and sent whole only when the server answers {@code NOSCRIPT}. Its
 * answers are read by {@link RedisScriptAnswer}, which documents them.
 * <p>
 * The script is called with every key it touches declared: the lease's key and its
 * waiters' structures ({@link #keys(byte[])}), one hash slot by the key's hash tag. While
 * that slot moves between two cluster masters, Redis refuses the call with
 * {@code TRYAGAIN} rather than run it where only part of the key's state is; where all
 * four keys are still together, on the source or the target, the script itself answers
 * {@code TRYAGAIN} to a call that would write, before its first write (Redis refuses a
 * command mid-script on a key the script emptied there, and keeps the writes made before
 * it). Either way nothing was written, and the call is asked again within a window
 * ({@link RedisMigrations}). The handed-grant keep window is
 * {@link KeyModel#HANDED_KEPT_MICROS}, written into the script's text here.
 *
 * @author Lease contributors
 */
final class RedisLeaseScript {

	// The version in the tags stored values begin with (lease.lua): both forms are
	// written
	// as version 3, which keeps each grant's start; the plain grant of version 1 and the
	// head of version 2, written by earlier snapshots, are still read.
	static final int FORMAT_VERSION = 3;

	static final String KEPT_PLACEHOLDER = "${HANDED_KEPT_MICROS}";

	// How long a call that is not a waiter's is asked again while its slot moves: a
	// slot's migration takes a few MIGRATE batches.
	private static final long SHORT_RETRY_MILLIS = 5_000;

	private static final byte[][] SUFFIXES = { RedisLeaseStore.ascii(":q"), RedisLeaseStore.ascii(":w"),
			RedisLeaseStore.ascii(":h") };

	private final byte[] source;

	private final String sha;

	// How long a Lettuce call waits for its answer: the command timeout of the factory.
	private final long timeoutMillis;

	// Set at start where handoffs are sharded: each call then names its key's channel.
	private volatile @Nullable RedisHandoffChannels shardedChannels;

	RedisLeaseScript(long timeoutMillis) {
		this.timeoutMillis = timeoutMillis;
		try (InputStream in = RedisLeaseScript.class.getResourceAsStream("lease.lua")) {
			if (in == null) {
				throw new IllegalStateException("lease.lua is missing beside " + RedisLeaseScript.class.getName());
			}
			String text = substitute(new String(in.readAllBytes(), StandardCharsets.UTF_8));
			this.source = text.getBytes(StandardCharsets.UTF_8);
			this.sha = DigestUtils.sha1DigestAsHex(text);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not read lease.lua", ex);
		}
	}

	// The script's constants that Java defines, written into its text.
	static String substitute(String text) {
		if (!text.contains(KEPT_PLACEHOLDER)) {
			throw new IllegalStateException("lease.lua lacks " + KEPT_PLACEHOLDER);
		}
		return text.replace(KEPT_PLACEHOLDER, Long.toString(KeyModel.HANDED_KEPT_MICROS));
	}

	// The keys the script touches, in the order it reads them as KEYS[1..4].
	static byte[][] keys(byte[] key) {
		byte[][] keys = new byte[SUFFIXES.length + 1][];
		keys[0] = key;
		for (int i = 0; i < SUFFIXES.length; i++) {
			keys[i + 1] = Arrays.copyOf(key, key.length + SUFFIXES[i].length);
			System.arraycopy(SUFFIXES[i], 0, keys[i + 1], key.length, SUFFIXES[i].length);
		}
		return keys;
	}

	String sha() {
		return this.sha;
	}

	// From now on, each call names the channel of its key's slot (lease.lua publishes on
	// the plain channel where a call names none).
	void publishSharded(RedisHandoffChannels channels) {
		this.shardedChannels = channels.sharded() ? channels : null;
	}

	// A call's arguments as sent: with its key's channel last where handoffs are sharded.
	byte[][] arguments(byte[] key, byte[][] args) {
		RedisHandoffChannels channels = this.shardedChannels;
		if (channels == null) {
			return args;
		}
		byte[][] named = Arrays.copyOf(args, args.length + 1);
		named[args.length] = channels.of(key);
		return named;
	}

	// The whole script, for a caller that sends it itself after NOSCRIPT.
	byte[] source() {
		return this.source.clone();
	}

	// The window of a waiter's question (a take, ask or settle), which the server judges
	// against the waiter's bound whenever it runs: the command timeout, the longest a
	// caller already waits for one answer.
	long waiterRetryNanos() {
		return TimeUnit.MILLISECONDS.toNanos(this.timeoutMillis);
	}

	// The window of the other calls.
	long shortRetryNanos() {
		return TimeUnit.MILLISECONDS.toNanos(Math.min(SHORT_RETRY_MILLIS, this.timeoutMillis));
	}

	// Load once at start; best effort, since some clients cannot send SCRIPT LOAD to a
	// cluster: the first call then falls back to EVAL, which caches the script too.
	void load(RedisConnection connection) {
		try {
			connection.scriptingCommands().scriptLoad(this.source);
		}
		catch (RuntimeException ex) {
			// NOSCRIPT fallback covers it
		}
	}

	List<Object> run(RedisConnection connection, byte[] key, byte[]... args) {
		return run(connection, key, shortRetryNanos(), args);
	}

	// One round trip: EVALSHA; only after NOSCRIPT (a restarted or flushed server) is the
	// whole script sent, which also caches it again. Through Lettuce an interrupt does
	// not end the wait for the answer (see LettuceCommands); through Jedis the socket
	// read is not interruptible, and an interrupt while waiting for a pooled connection
	// fails before anything is sent. A refusal while the slot moves is asked again for
	// up to retryNanos.
	List<Object> run(RedisConnection connection, byte[] key, long retryNanos, byte[]... args) {
		return run(connection, key, retryNanos, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(this.timeoutMillis),
				args);
	}

	// As above, the answer awaited through Lettuce until answerBy at the latest (a
	// System.nanoTime() reading): a waiter's question gives up on a silent server at its
	// bound plus the answer margin, not at the command timeout.
	List<Object> run(RedisConnection connection, byte[] key, long retryNanos, long answerBy, byte[]... args) {
		byte[][] keys = keys(key);
		byte[][] named = arguments(key, args);
		long left = Math.max(0, answerBy - System.nanoTime());
		long timeoutMillis = Math.min(this.timeoutMillis, Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
		List<Object> answer = RedisMigrations.retry(Math.min(retryNanos, left),
				() -> runOnce(connection, keys, named, timeoutMillis));
		return checked(key, answer);
	}

	// The answer of the script on the key, refused when it is none or not lease state.
	static List<Object> checked(byte[] key, @Nullable List<Object> answer) {
		if (answer == null || answer.isEmpty()) {
			throw new IllegalStateException("lease.lua answered nothing");
		}
		RedisScriptAnswer.requireLeaseState(key, answer);
		return answer;
	}

	private List<Object> runOnce(RedisConnection connection, byte[][] keys, byte[][] args, long timeoutMillis) {
		if (RedisLeaseStore.jedisPresent && timeoutMillis < this.timeoutMillis && JedisReads.handles(connection)) {
			return JedisReads.bounded(connection, timeoutMillis,
					() -> runOnceUnbounded(connection, keys, args, timeoutMillis));
		}
		return runOnceUnbounded(connection, keys, args, timeoutMillis);
	}

	private List<Object> runOnceUnbounded(RedisConnection connection, byte[][] keys, byte[][] args,
			long timeoutMillis) {
		boolean lettuce = RedisLeaseStore.lettucePresent && LettuceCommands.handles(connection);
		try {
			return lettuce ? LettuceCommands.evalSha(connection, this.sha, keys, args, timeoutMillis)
					: connection.scriptingCommands()
						.evalSha(this.sha, ReturnType.MULTI, keys.length, keysAndArgs(keys, args));
		}
		catch (RuntimeException ex) {
			if (!isNoScript(ex)) {
				throw ex;
			}
			return lettuce ? LettuceCommands.eval(connection, this.source, keys, args, timeoutMillis)
					: connection.scriptingCommands()
						.eval(this.source, ReturnType.MULTI, keys.length, keysAndArgs(keys, args));
		}
	}

	static byte[][] keysAndArgs(byte[][] keys, byte[]... args) {
		byte[][] keysAndArgs = new byte[keys.length + args.length][];
		System.arraycopy(keys, 0, keysAndArgs, 0, keys.length);
		System.arraycopy(args, 0, keysAndArgs, keys.length, args.length);
		return keysAndArgs;
	}

	static boolean isNoScript(Throwable ex) {
		return RedisCalls.anyMessage(ex, (message) -> message.contains("NOSCRIPT"));
	}

}
