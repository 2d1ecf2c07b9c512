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

package dev.lease.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jspecify.annotations.Nullable;
import redis.embedded.RedisServer;

/**
 * The servers the sample's profile tests run against: the ones named by
 * {@code LEASE_TEST_REDIS_URL} and {@code LEASE_TEST_POSTGRES_URL}, or else embedded ones
 * started once per test JVM from Maven artifacts and stopped when it exits, so that the
 * profiles are tested on a machine with nothing but a JDK.
 *
 * @author Lease contributors
 */
final class SampleTestServers {

	private static @Nullable String redisUrl;

	private static @Nullable String postgresUrl;

	private SampleTestServers() {
	}

	static synchronized String redisUrl() {
		if (redisUrl == null) {
			redisUrl = named("LEASE_TEST_REDIS_URL");
		}
		if (redisUrl == null) {
			int port = freePort();
			try {
				RedisServer server = RedisServer.newRedisServer().bind("127.0.0.1").port(port).build();
				server.start();
				Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server)));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			redisUrl = "redis://127.0.0.1:" + port;
		}
		return redisUrl;
	}

	// A JDBC URL with the user in it; the sample's postgres profile names user postgres.
	static synchronized String postgresUrl() {
		if (postgresUrl == null) {
			postgresUrl = named("LEASE_TEST_POSTGRES_URL");
		}
		if (postgresUrl == null) {
			try {
				EmbeddedPostgres server = EmbeddedPostgres.builder().start();
				Runtime.getRuntime().addShutdownHook(new Thread(() -> close(server)));
				postgresUrl = server.getJdbcUrl("postgres", "postgres");
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return postgresUrl;
	}

	private static @Nullable String named(String variable) {
		String value = System.getenv(variable);
		return (value != null && !value.isBlank()) ? value.trim() : null;
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void stop(RedisServer server) {
		try {
			server.stop();
		}
		catch (IOException ex) {
			// the JVM is exiting; the process dies with it
		}
	}

	private static void close(EmbeddedPostgres server) {
		try {
			server.close();
		}
		catch (IOException ex) {
			// the JVM is exiting; the process dies with it
		}
	}

}
