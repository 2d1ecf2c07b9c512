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

package dev.lease.test.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;

/**
 * The Redis server of a test: the one named by {@code LEASE_TEST_REDIS_URL}, or else an
 * embedded Redis (the {@code com.github.codemonstur:embedded-redis} artifact) started on
 * a free port and stopped by {@link #close()}.
 *
 * @author Lease contributors
 */
public final class RedisTestServer implements AutoCloseable {

	/**
	 * The variable naming a running server to use instead of an embedded one.
	 */
	public static final String URL_VARIABLE = "LEASE_TEST_REDIS_URL";

	private final String host;

	private final int port;

	private final @Nullable RedisServer embedded;

	private final List<String> settings;

	private final List<Object> factories = new ArrayList<>();

	private RedisTestServer(String host, int port, @Nullable RedisServer embedded, List<String> settings) {
		this.host = host;
		this.port = port;
		this.embedded = embedded;
		this.settings = settings;
	}

	/**
	 * Return the server named by {@code LEASE_TEST_REDIS_URL}, or start an embedded one.
	 * @return the server
	 */
	public static RedisTestServer start() {
		String url = System.getenv(URL_VARIABLE);
		if (url != null && !url.isBlank()) {
			URI uri = URI.create(url.trim());
			return new RedisTestServer(uri.getHost(), (uri.getPort() > 0) ? uri.getPort() : 6379, null, List.of());
		}
		return startEmbedded(freePort(), List.of());
	}

	/**
	 * Start an embedded server with the given settings, whatever the environment says.
	 * @param port the port
	 * @param settings redis.conf lines
	 * @return the server
	 */
	public static RedisTestServer startEmbedded(int port, List<String> settings) {
		try {
			var builder = RedisServer.newRedisServer().bind("127.0.0.1").port(port);
			for (String setting : settings) {
				builder.setting(setting);
			}
			RedisServer server = builder.build();
			server.start();
			return new RedisTestServer("127.0.0.1", port, server, settings);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Return the redis-server binary the embedded artifact ships.
	 * @return the executable
	 */
	public static File binary() {
		try {
			return ExecutableProvider.newJarResourceProvider().get();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public boolean isEmbedded() {
		return this.embedded != null;
	}

	public String host() {
		return this.host;
	}

	public int port() {
		return this.port;
	}

	public List<String> settings() {
		return this.settings;
	}

	public RedisConnectionFactory lettuce() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.host, this.port));
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return factory;
	}

	public RedisConnectionFactory jedis() {
		JedisConnectionFactory factory = new JedisConnectionFactory(
				new RedisStandaloneConfiguration(this.host, this.port));
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return factory;
	}

	// Spring Boot properties that point the RedisConnectionFactory at this server.
	public String[] properties() {
		return new String[] { "spring.data.redis.host=" + this.host, "spring.data.redis.port=" + this.port };
	}

	// The number of subscribers to the given channel, asked over a connection of its own.
	public long subscribers(String channel) {
		RedisClient client = RedisClient.create(RedisURI.create(this.host, this.port));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			return connection.sync().pubsubNumsub(channel).getOrDefault(channel, 0L);
		}
		finally {
			client.shutdown();
		}
	}

	// The Redis keys under a prefix, on a connection of its own: what a test left behind.
	// The prefix's protocol record, <prefix>protocol, which every start writes and which
	// is meant to stay, is not listed.
	public List<String> keys(String prefix) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.host, this.port));
		factory.afterPropertiesSet();
		factory.start();
		try (RedisConnection connection = factory.getConnection()) {
			Set<byte[]> keys = connection.keyCommands().keys((prefix + "*").getBytes(StandardCharsets.UTF_8));
			return (keys != null) ? keys.stream()
				.map((key) -> new String(key, StandardCharsets.UTF_8))
				.filter((key) -> !key.equals(prefix + "protocol"))
				.toList() : List.of();
		}
		finally {
			factory.destroy();
		}
	}

	// Stop the embedded server only (for restart tests); the factories stay. Redis
	// refuses to stop while it writes its first append-only file ("Writing initial AOF,
	// can't exit"), which a test that turned appendonly on just before its end leaves it
	// doing, and the embedded server's stop then waits forever: turning appendonly off
	// first ends that write.
	public void stopServer() {
		if (this.embedded != null) {
			if (this.embedded.isActive()) {
				appendOnlyOff();
			}
			try {
				this.embedded.stop();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}

	private void appendOnlyOff() {
		RedisClient client = RedisClient.create(RedisURI.create(this.host, this.port));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			connection.sync().configSet("appendonly", "no");
		}
		catch (RuntimeException ex) {
			// a server that does not answer is stopped all the same
		}
		finally {
			client.shutdown();
		}
	}

	@Override
	public void close() {
		for (Object factory : this.factories) {
			if (factory instanceof LettuceConnectionFactory lettuce) {
				lettuce.destroy();
			}
			else if (factory instanceof JedisConnectionFactory jedis) {
				jedis.destroy();
			}
		}
		this.factories.clear();
		stopServer();
	}

}
