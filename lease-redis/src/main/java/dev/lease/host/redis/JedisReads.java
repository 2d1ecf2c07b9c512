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

import java.util.function.Supplier;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;

/**
 * A waiter's question through Jedis, answered by the waiter's instant (Host: silence):
 * Jedis's read timeout is the factory's (two seconds unless set), and a pooled factory
 * lends with no time limit by default, so the question's reads are bound to the time left
 * ({@link #bounded}), and its connection is borrowed by a lender ({@link RedisCalls}).
 * Loaded only when Jedis is on the class path.
 *
 * @author Lease contributors
 */
final class JedisReads {

	private JedisReads() {
	}

	static boolean handles(RedisConnection connection) {
		return connection.getNativeConnection() instanceof Jedis;
	}

	// A pooled factory, whose pool waits for a connection as long as it is set to; a
	// Sentinel-aware one always pools.
	static boolean pooled(RedisConnectionFactory connectionFactory) {
		return connectionFactory instanceof JedisConnectionFactory jedis
				&& (jedis.getClientConfiguration().isUsePooling() || jedis.isRedisSentinelAware());
	}

	// The call, its reads answered within the time given at the latest, or failed. A read
	// that times out breaks the connection, which the pool then discards.
	static <T> T bounded(RedisConnection connection, long timeoutMillis, Supplier<T> call) {
		Connection socket = ((Jedis) connection.getNativeConnection()).getConnection();
		int before = socket.getSoTimeout();
		boolean shorter = before == 0 || timeoutMillis < before;
		if (shorter) {
			socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMillis));
		}
		try {
			return call.get();
		}
		finally {
			if (shorter && !socket.isBroken()) {
				socket.setSoTimeout(before);
			}
		}
	}

}
