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
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.test.support.RedisTestServer;

/**
 * Measures, not tests, a hot key on {@link RedisLeaseHost} (issue 16): for each N of
 * {@code LEASE_MEASURE_SIZES} (default 10,100,1000,10000) waiters on one key, each
 * queueing again after its turn, the script calls per handoff, the handoff p50/p99 and
 * the longest single command Redis logged (SLOWLOG), on a server of its own. Runs only
 * with {@code LEASE_MEASURE=true}; prints its rows.
 *
 * @author Lease contributors
 */
@Tag("measure")
@EnabledIfEnvironmentVariable(named = "LEASE_MEASURE", matches = "true")
class RedisHotKeyMeasureIntegrationTests {

	@Test
	@DisplayName("Hot key: host calls per handoff, handoff p50/p99 and SLOWLOG max at N waiters")
	void measure() throws Exception {
		String sizes = System.getenv().getOrDefault("LEASE_MEASURE_SIZES", "10,100,1000,10000");
		int handoffs = Integer.parseInt(System.getenv().getOrDefault("LEASE_MEASURE_HANDOFFS", "1000"));
		for (int waiters : RedisHotKey.sizes(sizes)) {
			try (RedisTestServer server = RedisTestServer.startEmbedded(RedisTestServer.freePort(),
					List.of("slowlog-log-slower-than 0", "slowlog-max-len 1000000"))) {
				RedisConnectionFactory factory = server.lettuce();
				RedisHotKey.Result result = RedisHotKey.run(factory, waiters, handoffs, true,
						RedisHotKeyMeasureIntegrationTests::resetSlowLog, RedisHotKeyMeasureIntegrationTests::slowest);
				System.out.println("MEASURE " + result);
			}
		}
	}

	// Only the handoffs are measured, not the queueing.
	private static void resetSlowLog(RedisConnectionFactory factory) {
		try (RedisConnection connection = factory.getConnection()) {
			((RedisClusterAsyncCommands<?, ?>) connection.getNativeConnection()).slowlogReset()
				.get(1, TimeUnit.MINUTES);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	// The longest script call in the slow log, which logs every command here: its
	// microseconds and operation. SLOWLOG itself (the reset drops the queueing's entries)
	// is not a script call.
	private static String slowest(RedisConnectionFactory factory) {
		try (RedisConnection connection = factory.getConnection()) {
			Object log = ((RedisClusterAsyncCommands<?, ?>) connection.getNativeConnection()).slowlogGet(-1)
				.get(1, TimeUnit.MINUTES);
			long slowest = 0;
			String operation = "none";
			if (log instanceof List<?> entries) {
				for (Object entry : entries) {
					if (entry instanceof List<?> fields && fields.size() > 3 && fields.get(2) instanceof Long micros
							&& fields.get(3) instanceof List<?> args && args.size() > 4
							&& "EVALSHA".equalsIgnoreCase(text(args.get(0))) && micros > slowest) {
						slowest = micros;
						operation = text(args.get(4));
					}
				}
			}
			return ", slowest script call " + slowest + " us (" + operation + ")";
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String text(Object value) {
		return (value instanceof byte[] bytes) ? new String(bytes, StandardCharsets.US_ASCII) : String.valueOf(value);
	}

}
