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
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.util.ClassUtils;

/**
 * The one Lua script that holds the state model ({@code lease.lua} beside this class),
 * called by its SHA and sent whole only when the server answers {@code NOSCRIPT}. Its
 * answers are read by {@link RedisScriptAnswer}, which documents them.
 *
 * @author Lease contributors
 */
final class RedisLeaseScript {

	// The latest version in the tags stored values begin with (lease.lua): a plain grant
	// keeps the tag of version 1, a key with waiters is of version 2.
	static final int FORMAT_VERSION = 2;

	private final byte[] source;

	private final String sha;

	private final boolean lettucePresent = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			RedisLeaseScript.class.getClassLoader());

	// How long a Lettuce call waits for its answer: the command timeout of the factory.
	private final long timeoutMillis;

	RedisLeaseScript(long timeoutMillis) {
		this.timeoutMillis = timeoutMillis;
		try (InputStream in = RedisLeaseScript.class.getResourceAsStream("lease.lua")) {
			if (in == null) {
				throw new IllegalStateException("lease.lua is missing beside " + RedisLeaseScript.class.getName());
			}
			this.source = in.readAllBytes();
			this.sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(this.source));
		}
		catch (IOException | NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Could not read lease.lua", ex);
		}
	}

	String sha() {
		return this.sha;
	}

	// The whole script, for a caller that sends it itself after NOSCRIPT.
	byte[] source() {
		return this.source;
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

	// One round trip: EVALSHA; only after NOSCRIPT (a restarted or flushed server) is the
	// whole script sent, which also caches it again. Through Lettuce an interrupt does
	// not end the wait for the answer (see LettuceCommands); through Jedis the socket
	// read is not interruptible, and an interrupt while waiting for a pooled connection
	// fails before anything is sent.
	List<Object> run(RedisConnection connection, byte[] key, byte[]... args) {
		boolean lettuce = this.lettucePresent && LettuceCommands.handles(connection);
		byte[][] keys = { key };
		List<Object> answer;
		try {
			answer = lettuce ? LettuceCommands.evalSha(connection, this.sha, keys, args, this.timeoutMillis)
					: connection.scriptingCommands().evalSha(this.sha, ReturnType.MULTI, 1, keysAndArgs(key, args));
		}
		catch (RuntimeException ex) {
			if (!isNoScript(ex)) {
				throw ex;
			}
			answer = lettuce ? LettuceCommands.eval(connection, this.source, keys, args, this.timeoutMillis)
					: connection.scriptingCommands().eval(this.source, ReturnType.MULTI, 1, keysAndArgs(key, args));
		}
		if (answer == null || answer.isEmpty()) {
			throw new IllegalStateException("lease.lua answered nothing");
		}
		RedisScriptAnswer.requireLeaseState(key, answer);
		return answer;
	}

	private static byte[][] keysAndArgs(byte[] key, byte[][] args) {
		byte[][] keysAndArgs = new byte[args.length + 1][];
		keysAndArgs[0] = key;
		System.arraycopy(args, 0, keysAndArgs, 1, args.length);
		return keysAndArgs;
	}

	static boolean isNoScript(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			String message = cause.getMessage();
			if (message != null && message.contains("NOSCRIPT")) {
				return true;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

}
