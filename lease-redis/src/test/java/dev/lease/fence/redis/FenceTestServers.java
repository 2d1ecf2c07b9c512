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

package dev.lease.fence.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import redis.embedded.RedisServer;

/**
 * The Redis server the fence tests write to: the running one named by
 * {@code LEASE_TEST_REDIS_URL}, else an embedded one started here.
 *
 * @author Lease contributors
 */
final class FenceTestServers {

	static final String REDIS_URL = "LEASE_TEST_REDIS_URL";

	private FenceTestServers() {
	}

	static Redis redis() throws IOException {
		String url = System.getenv(REDIS_URL);
		if (url != null && !url.isBlank()) {
			URI uri = URI.create(url);
			return Redis.connect(uri.getHost(), (uri.getPort() > 0) ? uri.getPort() : 6379, null);
		}
		int port = freePort();
		RedisServer server = new RedisServer(port);
		server.start();
		return Redis.connect("127.0.0.1", port, server::stop);
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Something to stop when the tests are done.
	 */
	@FunctionalInterface
	interface Stop {

		void stop() throws IOException;

	}

	/**
	 * A Redis server to write to, and how to stop it when it was started here.
	 */
	record Redis(LettuceConnectionFactory connectionFactory, StringRedisTemplate template,
			@Nullable Stop stop) implements AutoCloseable {

		static Redis connect(String host, int port, @Nullable Stop stop) {
			LettuceConnectionFactory factory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration(host, port));
			factory.afterPropertiesSet();
			factory.start();
			StringRedisTemplate template = new StringRedisTemplate(factory);
			template.afterPropertiesSet();
			return new Redis(factory, template, stop);
		}

		@Override
		public void close() throws IOException {
			this.connectionFactory.destroy();
			if (this.stop != null) {
				this.stop.stop();
			}
		}

	}

}
