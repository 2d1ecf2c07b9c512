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
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import org.jspecify.annotations.Nullable;
import redis.embedded.core.ExecutableProvider;

import dev.lease.LeaseKey;

import static org.awaitility.Awaitility.await;

/**
 * A primary, its replica and three Sentinels, each its own {@code redis-server} process
 * on a free loopback port (the machine's {@code /usr/bin/redis-server}, or the binary the
 * embedded-redis artifact ships where that is absent), with its files in a temporary
 * directory; {@link #close()} kills every process still running and removes the files.
 * The Sentinels mark the primary down after one second without an answer and need two of
 * the three to agree before they fail over.
 *
 * @author Lease contributors
 */
public final class RedisSentinelGroup implements AutoCloseable {

	/**
	 * The name the Sentinels monitor the primary under.
	 */
	public static final String MASTER = "lease-failover";

	private static final Path SYSTEM_BINARY = Path.of("/usr/bin/redis-server");

	private static final int SENTINELS = 3;

	private static final String REPLICATOR = "replicator";

	private static final int ATTEMPTS = 3;

	private final Path directory;

	private final String binary;

	private final List<Process> processes = new ArrayList<>();

	private final List<Integer> sentinelPorts = new ArrayList<>();

	private final Set<Integer> ports = new HashSet<>();

	private final RedisClient client = RedisClient.create();

	private final int primaryPort;

	private final int replicaPort;

	private @Nullable Process primary;

	private RedisSentinelGroup() throws IOException {
		this.directory = Files.createTempDirectory("lease-redis-sentinel");
		this.binary = binary();
		this.primaryPort = port();
		this.replicaPort = port();
	}

	private void launch() throws IOException {
		this.primary = startServer("primary", this.primaryPort, List.of());
		await("the primary answers").atMost(Duration.ofSeconds(10))
			.ignoreExceptions()
			.until(() -> info(this.primaryPort).contains("role:master"));
		startServer("replica", this.replicaPort, List.of("replicaof 127.0.0.1 " + this.primaryPort));
		await("the replica is in sync").atMost(Duration.ofSeconds(20))
			.ignoreExceptions()
			.until(() -> info(this.replicaPort).contains("master_link_status:up"));
		// Started once the replica is attached, so that each Sentinel's first look at the
		// primary already lists it.
		for (int i = 0; i < SENTINELS; i++) {
			int port = port();
			startSentinel(port);
			this.sentinelPorts.add(port);
		}
		await("every Sentinel knows the replica and the other Sentinels").atMost(Duration.ofSeconds(30))
			.ignoreExceptions()
			.until(() -> this.sentinelPorts.stream().allMatch(this::sentinelReady));
	}

	/**
	 * Start a group whose replica replicates from the primary.
	 * @return the running group
	 */
	public static RedisSentinelGroup start() {
		IllegalStateException failed = null;
		// A port found free can be taken before its server binds it, by another test JVM:
		// the group starts again on other ports.
		for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
			RedisSentinelGroup group;
			try {
				group = new RedisSentinelGroup();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			try {
				group.launch();
				return group;
			}
			catch (IOException | RuntimeException | Error ex) {
				// what did start is stopped, and its logs say why the rest did not
				String logs = group.logs();
				group.close();
				IllegalStateException attemptFailed = new IllegalStateException(
						"The Sentinel group did not start (attempt " + attempt + "):\n" + logs, ex);
				if (failed != null) {
					attemptFailed.addSuppressed(failed);
				}
				failed = attemptFailed;
			}
		}
		throw failed;
	}

	// Spring Boot properties that point the RedisConnectionFactory at the Sentinels.
	public String[] properties() {
		return new String[] { "spring.data.redis.sentinel.master=" + MASTER, "spring.data.redis.sentinel.nodes="
				+ this.sentinelPorts.stream().map((port) -> "127.0.0.1:" + port).collect(Collectors.joining(",")) };
	}

	/**
	 * From now on nothing the primary writes reaches the replica, as in a partition of
	 * that one link: the primary refuses the replica's user and drops its connection,
	 * with what was not yet sent on it. The replica keeps asking to be let in and stays
	 * the one the Sentinels promote. (A relay between the two would not do: a Sentinel
	 * points a replica that replicates from an address other than the primary's back at
	 * the primary, and the replica catches up.)
	 */
	public void holdReplication() {
		try (StatefulRedisConnection<String, String> connection = connect(this.primaryPort)) {
			connection.sync().aclSetuser(REPLICATOR, AclSetuserArgs.Builder.off());
			connection.sync().clientKill(KillArgs.Builder.typeSlave());
		}
	}

	// kill -9 of the primary's process (SIGKILL to its PID): no shutdown, nothing
	// flushed.
	public void killPrimary() {
		Process process = this.primary;
		if (process == null) {
			throw new IllegalStateException("The primary is already killed");
		}
		process.destroyForcibly();
		waitFor(process);
		this.primary = null;
	}

	/**
	 * Wait until every Sentinel names the replica as the primary and the replica answers
	 * as one.
	 * @param atMost the longest wait
	 */
	public void awaitPromotion(Duration atMost) {
		await("the Sentinels promote the replica").atMost(atMost)
			.pollInterval(Duration.ofMillis(100))
			.ignoreExceptions()
			.until(() -> this.sentinelPorts.stream().allMatch((port) -> namedPrimary(port) == this.replicaPort)
					&& info(this.replicaPort).contains("role:master"));
	}

	// The killed primary's machine comes back: an empty server that replicates from the
	// promoted replica, so that grants can be acknowledged again.
	public void rejoinOldPrimary() throws IOException {
		if (this.primary != null) {
			throw new IllegalStateException("The primary is still running");
		}
		this.primary = startServer("old-primary", this.primaryPort, List.of("replicaof 127.0.0.1 " + this.replicaPort));
		await("the old primary replicates from the new one").atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(100))
			.ignoreExceptions()
			.until(() -> info(this.primaryPort).contains("master_link_status:up"));
	}

	// The port the first primary listens on, until it is killed.
	public int primaryPort() {
		return this.primaryPort;
	}

	// Whether the replica's copy of the data holds anything for the key under the prefix,
	// read on the replica itself: what a failover would keep.
	public boolean replicaHasKey(String keyPrefix, LeaseKey key) {
		try (StatefulRedisConnection<String, String> connection = connect(this.replicaPort)) {
			return connection.sync().exists(redisKey(keyPrefix, key)) > 0;
		}
	}

	// The Redis key the host keeps a lease key's grant under.
	public String redisKey(String keyPrefix, LeaseKey key) {
		return keyPrefix + "{" + Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes()) + "}";
	}

	// The last lines each process logged, for a failure's message.
	public String logs() {
		StringBuilder logs = new StringBuilder();
		try (var files = Files.list(this.directory)) {
			for (Path log : files.filter((path) -> path.toString().endsWith(".log")).sorted().toList()) {
				List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
				logs.append("--- ").append(log.getFileName()).append('\n');
				lines.subList(Math.max(0, lines.size() - 40), lines.size())
					.forEach((line) -> logs.append(line).append('\n'));
			}
		}
		catch (IOException ex) {
			logs.append("(logs unreadable: ").append(ex).append(")\n");
		}
		return logs.toString();
	}

	@Override
	public void close() {
		for (Process process : this.processes) {
			process.destroyForcibly();
			waitFor(process);
		}
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		try (var paths = Files.walk(this.directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// best effort: the files are in a temporary directory
		}
	}

	private Process startServer(String name, int port, List<String> extra) throws IOException {
		List<String> config = new ArrayList<>(List.of("port " + port, "bind 127.0.0.1", "dir " + dir(name), "save \"\"",
				"appendonly no", "repl-diskless-sync-delay 0",
				// replicas log in as a user of their own, which holdReplication() refuses
				"user " + REPLICATOR + " on >" + REPLICATOR + " ~* &* +@all", "masteruser " + REPLICATOR,
				"masterauth " + REPLICATOR));
		config.addAll(extra);
		return start(name, port, config, false);
	}

	private void startSentinel(int port) throws IOException {
		String name = "sentinel-" + port;
		start(name, port,
				List.of("port " + port, "bind 127.0.0.1", "dir " + dir(name),
						"sentinel monitor " + MASTER + " 127.0.0.1 " + this.primaryPort + " 2",
						"sentinel down-after-milliseconds " + MASTER + " 1000",
						"sentinel failover-timeout " + MASTER + " 2000", "sentinel parallel-syncs " + MASTER + " 1"),
				true);
	}

	private Path dir(String name) throws IOException {
		return Files.createDirectories(this.directory.resolve(name));
	}

	// A Sentinel rewrites its configuration file, so every process has a file of its own.
	private Process start(String name, int port, List<String> config, boolean sentinel) throws IOException {
		Path file = this.directory.resolve(name + ".conf");
		Files.write(file, config, StandardCharsets.UTF_8);
		List<String> command = new ArrayList<>(List.of(this.binary, file.toString()));
		if (sentinel) {
			command.add("--sentinel");
		}
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(this.directory.resolve(name + ".log").toFile())
			.start();
		this.processes.add(process);
		return process;
	}

	private boolean sentinelReady(int port) {
		try (StatefulRedisSentinelConnection<String, String> connection = this.client.connectSentinel(uri(port))) {
			Map<String, String> master = connection.sync().master(MASTER);
			return "1".equals(master.get("num-slaves"))
					&& String.valueOf(SENTINELS - 1).equals(master.get("num-other-sentinels"));
		}
	}

	private int namedPrimary(int sentinelPort) {
		try (StatefulRedisSentinelConnection<String, String> connection = this.client
			.connectSentinel(uri(sentinelPort))) {
			SocketAddress address = connection.sync().getMasterAddrByName(MASTER);
			return (address instanceof InetSocketAddress inet) ? inet.getPort() : -1;
		}
	}

	private String info(int port) {
		try (StatefulRedisConnection<String, String> connection = connect(port)) {
			return connection.sync().info("replication");
		}
	}

	private StatefulRedisConnection<String, String> connect(int port) {
		return this.client.connect(uri(port));
	}

	private static RedisURI uri(int port) {
		return RedisURI.builder().withHost("127.0.0.1").withPort(port).withTimeout(Duration.ofSeconds(2)).build();
	}

	private static String binary() throws IOException {
		if (Files.isExecutable(SYSTEM_BINARY)) {
			return SYSTEM_BINARY.toString();
		}
		File shipped = ExecutableProvider.newJarResourceProvider().get();
		return shipped.getAbsolutePath();
	}

	// A free port none of the group's servers was given: the system can name the same
	// one twice while nothing has bound it yet.
	private int port() throws IOException {
		int port = freePort();
		while (!this.ports.add(port)) {
			port = freePort();
		}
		return port;
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
	}

	private static void waitFor(Process process) {
		try {
			process.waitFor();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
