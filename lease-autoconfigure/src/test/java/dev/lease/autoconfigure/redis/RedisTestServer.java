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

package dev.lease.autoconfigure.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.jspecify.annotations.Nullable;
import redis.embedded.RedisServer;

/**
 * The Redis server of a test: the one named by {@code LEASE_TEST_REDIS_URL}, or else an
 * embedded Redis (the {@code com.github.codemonstur:embedded-redis} artifact) started on
 * a free port and stopped by {@link #close()}.
 *
 * @author Lease contributors
 */
final class RedisTestServer implements AutoCloseable {

	static final String URL_VARIABLE = "LEASE_TEST_REDIS_URL";

	private final String host;

	private final int port;

	private final @Nullable RedisServer embedded;

	private RedisTestServer(String host, int port, @Nullable RedisServer embedded) {
		this.host = host;
		this.port = port;
		this.embedded = embedded;
	}

	// The server named by LEASE_TEST_REDIS_URL, or an embedded one on a free port.
	static RedisTestServer start() {
		String url = System.getenv(URL_VARIABLE);
		if (url != null && !url.isBlank()) {
			URI uri = URI.create(url.trim());
			return new RedisTestServer(uri.getHost(), (uri.getPort() > 0) ? uri.getPort() : 6379, null);
		}
		int port = freePort();
		try {
			RedisServer server = RedisServer.newRedisServer().bind("127.0.0.1").port(port).build();
			server.start();
			return new RedisTestServer("127.0.0.1", port, server);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	// An embedded server with the given redis.conf lines, whatever the environment says.
	static RedisTestServer startEmbedded(List<String> settings) {
		int port = freePort();
		try {
			var builder = RedisServer.newRedisServer().bind("127.0.0.1").port(port);
			settings.forEach(builder::setting);
			RedisServer server = builder.build();
			server.start();
			return new RedisTestServer("127.0.0.1", port, server);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	// Spring Boot properties that point the RedisConnectionFactory at this server.
	String[] properties() {
		return new String[] { "spring.data.redis.host=" + this.host, "spring.data.redis.port=" + this.port };
	}

	// The number of subscribers to the given channel, asked over a connection of its own.
	long subscribers(String channel) {
		RedisClient client = RedisClient.create(RedisURI.create(this.host, this.port));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			return connection.sync().pubsubNumsub(channel).getOrDefault(channel, 0L);
		}
		finally {
			client.shutdown();
		}
	}

	@Override
	public void close() {
		if (this.embedded != null) {
			try {
				this.embedded.stop();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}

}
