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
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;

/**
 * An instance of a release that spoke Redis protocol 1, as small as its calls: it runs
 * that release's own {@code lease.lua} (the test fixture {@code protocol-1/lease.lua})
 * with the keys and arguments its host passed (commit 46b29fd's {@code RedisKeyCodec} and
 * {@code RedisLeaseStore}: one key {@code <prefix>{<base64url key>}}; a duration in
 * microseconds; the handoff channel {@code <prefix>handoff}), and returns the script's
 * raw answer: a code first, as that release's {@code RedisScriptAnswer} read it.
 *
 * @author Lease contributors
 */
final class PreviousProtocolRedisInstance {

	private static final byte[] SCRIPT = script();

	private final RedisConnectionFactory factory;

	private final String keyPrefix;

	PreviousProtocolRedisInstance(RedisConnectionFactory factory, String keyPrefix) {
		this.factory = factory;
		this.keyPrefix = keyPrefix;
	}

	// { 1, expiresAt } taken, { 0 } held by another, { -1 } held by the holder already
	List<Object> tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		return run(key, ascii("try"), holder.bytes(), micros(duration));
	}

	// As tryTake, or { 0, bound, remaining }: queued under the ticket behind the grant
	List<Object> take(LeaseKey key, LeaseHolder holder, Duration duration, String ticket) {
		return run(key, ascii("take"), holder.bytes(), micros(duration), ascii(ticket));
	}

	// { 1 } released, { 1, ticket, expiresAt } and handed to that waiter, { 0 } not held
	List<Object> release(LeaseKey key, LeaseHolder holder) {
		return run(key, ascii("release"), holder.bytes(), ascii(this.keyPrefix + "handoff"));
	}

	byte[] redisKey(LeaseKey key) {
		return ascii(this.keyPrefix + "{" + Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes()) + "}");
	}

	private List<Object> run(LeaseKey key, byte[]... arguments) {
		byte[][] keysAndArguments = new byte[arguments.length + 1][];
		keysAndArguments[0] = redisKey(key);
		System.arraycopy(arguments, 0, keysAndArguments, 1, arguments.length);
		try (RedisConnection connection = this.factory.getConnection()) {
			return connection.scriptingCommands().eval(SCRIPT, ReturnType.MULTI, 1, keysAndArguments);
		}
	}

	private static byte[] micros(Duration duration) {
		return ascii(Long.toString(duration.toNanos() / 1000));
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

	private static byte[] script() {
		try (InputStream in = PreviousProtocolRedisInstance.class.getResourceAsStream("/protocol-1/lease.lua")) {
			if (in == null) {
				throw new IllegalStateException("protocol-1/lease.lua is missing from the test resources");
			}
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
