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

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;

/**
 * Writes a lease's stored state the way lease.lua does, for tests that need a state the
 * host cannot be made to write on a healthy clock; the one place tests know the format.
 *
 * @author Lease contributors
 */
final class RedisStoredState {

	/**
	 * The bytes every value of the plain grant form begins with: the marker 0xC1 'L', the
	 * format version 3 and the form 'G'.
	 */
	static final byte[] TAG = { (byte) 0xC1, 'L', 3, 'G' };

	// The previous holder's grant ended one second before the latest reading, which
	// stands ahead of TIME: either in the plain form (a grant and nothing else) or in the
	// queued form's head with no grant, no waiters and nothing handed.
	private static final String ENDED_GRANT_AHEAD = """
			if redis.replicate_commands then redis.replicate_commands() end
			local t = redis.call('TIME')
			local latest = tonumber(t[1]) * 1000000 + tonumber(t[2]) + tonumber(ARGV[2])
			local value
			if ARGV[1] == 'plain' then
				value = '\\193L\\3G' .. struct.pack('>i8i8i8', latest, latest - 1000000, latest - 2000000) .. ARGV[3]
			else
				value = '\\193L\\3W' .. struct.pack('>i8i8i8i8i8i8', latest, 0, 0, 0, latest, 0)
			end
			redis.call('SET', KEYS[1], value, 'PX', 120000)
			return 1""";

	// A grant standing for the term from TIME as an earlier snapshot stored it, without
	// its start: the plain form of version 1, or the head of version 2 with nobody
	// queued.
	private static final String EARLIER_GRANT = """
			if redis.replicate_commands then redis.replicate_commands() end
			local t = redis.call('TIME')
			local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
			local expires = now + tonumber(ARGV[2])
			local value
			if ARGV[1] == 'plain' then
				value = '\\193L\\1G' .. struct.pack('>i8i8', now, expires) .. ARGV[3]
			else
				value = '\\193L\\2W' .. struct.pack('>i8i8i8i8i8', now, expires, 0, expires, 0) .. ARGV[3]
			end
			redis.call('SET', KEYS[1], value, 'PX', math.floor(tonumber(ARGV[2]) / 1000) + 1000)
			return 1""";

	private RedisStoredState() {
	}

	static void writeEarlierGrant(RedisConnection connection, byte[] redisKey, String form, Duration term,
			String holder) {
		write(connection, EARLIER_GRANT, redisKey, form, term, holder);
	}

	static void writeEndedGrantAhead(RedisConnection connection, byte[] redisKey, String form, Duration ahead,
			String holder) {
		write(connection, ENDED_GRANT_AHEAD, redisKey, form, ahead, holder);
	}

	// Each script takes the form, a span in microseconds and the holder.
	private static void write(RedisConnection connection, String script, byte[] redisKey, String form, Duration span,
			String holder) {
		connection.scriptingCommands()
			.eval(script.getBytes(StandardCharsets.UTF_8), ReturnType.INTEGER, 1, redisKey,
					form.getBytes(StandardCharsets.US_ASCII),
					Long.toString(span.toNanos() / 1000).getBytes(StandardCharsets.US_ASCII),
					holder.getBytes(StandardCharsets.UTF_8));
	}

}
