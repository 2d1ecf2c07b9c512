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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.Test;

import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that an embedded test server stops while it writes its first append-only file:
 * Redis refuses a SIGTERM then ("Writing initial AOF, can't exit") and stays up, so a
 * test that turned {@code appendonly} on just before its end waited forever in its
 * clean-up.
 *
 * @author Lease contributors
 */
class RedisTestServerStopIntegrationTests {

	// Long enough to stop a server that hangs, short against a CI run.
	private static final Duration STOPS_WITHIN = Duration.ofSeconds(60);

	@Test
	void anEmbeddedServerStopsWhileItWritesItsFirstAppendOnlyFile() throws Exception {
		int port = RedisTestServer.freePort();
		RedisTestServer server = RedisTestServer.startEmbedded(port, List.of());
		RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", port));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			// no snapshot on the way, which would only schedule the rewrite; and
			// enough data that the first rewrite is still running when the server is
			// stopped
			connection.sync().configSet("save", "");
			connection.sync()
				.dispatch(CommandType.DEBUG, new StatusOutput<>(StringCodec.UTF8),
						new CommandArgs<>(StringCodec.UTF8).add("POPULATE").add(1_000_000));
			connection.sync().configSet("appendonly", "yes");
			assertThat(connection.sync().info("persistence")).contains("aof_rewrite_in_progress:1");
		}
		finally {
			client.shutdown();
		}
		CompletableFuture<Void> stopped = CompletableFuture.runAsync(server::close);
		stopped.get(STOPS_WITHIN.toSeconds(), TimeUnit.SECONDS);
	}

}
