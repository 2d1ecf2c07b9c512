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

package dev.lease.benchmarks;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.host.redis.RedisLeaseHost;

/**
 * The Redis host on a {@code redis-server} this suite starts on a free port and stops, so
 * that it may log every command in {@code SLOWLOG} and flush its own data. Host calls are
 * counted at the client (every command the host's Lettuce client sends; the server's
 * {@code INFO commandstats} also counts the commands scripts run inside them), script
 * calls from {@code INFO commandstats}, store CPU from {@code INFO cpu}, and the longest
 * single command from {@code SLOWLOG}, drained atomically every 100 ms.
 *
 * @author Lease contributors
 */
final class RedisScaleStore implements ScaleStore {

	private static final int SLOWLOG_LENGTH = 8192;

	private static final Set<String> SCRIPTS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro");

	// Commands of this suite, never of the host.
	private static final Set<String> OWN = Set.of("info", "slowlog", "config", "flushdb", "multi", "exec", "ping",
			"hello", "client", "command");

	private final Process server;

	private final LettuceConnectionFactory factory;

	private final RedisLeaseHost host;

	private final RedisClient statsClient;

	private final StatefulRedisConnection<String, String> stats;

	// A connection of its own: a MULTI on a shared one would take in other commands.
	private final StatefulRedisConnection<String, String> slowlog;

	private final AtomicLong hostCommands = new AtomicLong();

	private final ScheduledExecutorService drainer = Executors.newSingleThreadScheduledExecutor();

	private long maxMicros;

	private String maxCommand = "";

	private long slowlogOverflows;

	RedisScaleStore(String executable) throws IOException, InterruptedException {
		int port = freePort();
		File log = File.createTempFile("scale-redis-", ".log");
		this.server = new ProcessBuilder(executable, "--port", String.valueOf(port), "--bind", "127.0.0.1", "--save",
				"", "--appendonly", "no", "--slowlog-log-slower-than", "0", "--slowlog-max-len",
				String.valueOf(SLOWLOG_LENGTH))
			.redirectErrorStream(true)
			.redirectOutput(log)
			.start();
		this.statsClient = RedisClient.create("redis://127.0.0.1:" + port);
		this.stats = connect(this.statsClient, log);
		this.slowlog = this.statsClient.connect();
		this.factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
		this.factory.afterPropertiesSet();
		this.factory.start();
		AbstractRedisClient client = this.factory.getRequiredNativeClient();
		client.addListener(new CommandListener() {
			@Override
			public void commandStarted(CommandStartedEvent event) {
				RedisScaleStore.this.hostCommands.incrementAndGet();
			}
		});
		String prefix = "scale-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		this.host = RedisLeaseHost.builder(this.factory).keyPrefix(prefix).build();
		this.drainer.scheduleWithFixedDelay(this::drainSlowlogQuietly, 100, 100, TimeUnit.MILLISECONDS);
	}

	private StatefulRedisConnection<String, String> connect(RedisClient client, File log) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (true) {
			try {
				return client.connect();
			}
			catch (RuntimeException ex) {
				if (System.nanoTime() > deadline || !this.server.isAlive()) {
					this.server.destroy();
					throw new IllegalStateException("redis-server did not start; see " + log, ex);
				}
				Thread.sleep(50);
			}
		}
	}

	@Override
	public String name() {
		return "redis";
	}

	@Override
	public LeaseHost host() {
		return this.host;
	}

	@Override
	public synchronized Counters counters() {
		drainSlowlog();
		RedisCommands<String, String> commands = this.stats.sync();
		long scriptCalls = 0;
		for (String line : commands.info("commandstats").split("\r?\n")) {
			if (line.startsWith("cmdstat_") && SCRIPTS.contains(line.substring(8, line.indexOf(':')))) {
				scriptCalls += Long.parseLong(field(line, "calls"));
			}
		}
		String cpu = commands.info("cpu");
		long cpuMicros = Math.round(
				(Double.parseDouble(property(cpu, "used_cpu_sys")) + Double.parseDouble(property(cpu, "used_cpu_user")))
						* 1e6);
		Counters counters = new Counters(this.hostCommands.get(), scriptCalls, cpuMicros, this.maxMicros,
				this.maxCommand + ((this.slowlogOverflows > 0) ? " (SLOWLOG overflowed)" : ""));
		this.maxMicros = 0;
		this.maxCommand = "";
		this.slowlogOverflows = 0;
		return counters;
	}

	// A failed drain must not end the schedule; the next drain reads what this one
	// missed.
	private synchronized void drainSlowlogQuietly() {
		try {
			drainSlowlog();
		}
		catch (RuntimeException ex) {
			System.err.println("scale: SLOWLOG drain failed: " + ex);
			try {
				this.slowlog.sync().discard();
			}
			catch (RuntimeException notInTransaction) {
				// nothing to discard
			}
		}
	}

	// GET and RESET in one transaction, so no entry falls between them.
	@SuppressWarnings("unchecked")
	private synchronized void drainSlowlog() {
		RedisCommands<String, String> commands = this.slowlog.sync();
		commands.multi();
		commands.slowlogGet(SLOWLOG_LENGTH);
		commands.slowlogReset();
		TransactionResult result = commands.exec();
		List<Object> entries = result.get(0);
		if (entries.size() >= SLOWLOG_LENGTH) {
			this.slowlogOverflows++;
		}
		for (Object entry : entries) {
			List<Object> fields = (List<Object>) entry;
			long micros = (Long) fields.get(2);
			List<Object> arguments = (List<Object>) fields.get(3);
			String command = String.valueOf(arguments.get(0)).toLowerCase(Locale.ROOT);
			if (!OWN.contains(command) && micros > this.maxMicros) {
				this.maxMicros = micros;
				this.maxCommand = command;
			}
		}
	}

	@Override
	public synchronized void forget(LeaseKey key) {
		this.stats.sync().flushdb();
	}

	@Override
	public synchronized void clear() {
		this.stats.sync().flushdb();
	}

	@Override
	public synchronized long storedBytes() {
		return Long.parseLong(property(this.stats.sync().info("memory"), "used_memory"));
	}

	@Override
	public void close() {
		this.drainer.shutdownNow();
		try {
			this.host.close();
			this.factory.destroy();
			this.stats.close();
			this.slowlog.close();
			this.statsClient.shutdown();
		}
		finally {
			this.server.destroy();
			try {
				this.server.waitFor(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private static String property(String info, String name) {
		for (String line : info.split("\r?\n")) {
			if (line.startsWith(name + ":")) {
				return line.substring(name.length() + 1).trim();
			}
		}
		throw new IllegalStateException("INFO has no " + name);
	}

	private static String field(String line, String name) {
		for (String part : line.substring(line.indexOf(':') + 1).split(",")) {
			if (part.startsWith(name + "=")) {
				return part.substring(name.length() + 1);
			}
		}
		throw new IllegalStateException("No " + name + " in " + line);
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
