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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;

import static org.awaitility.Awaitility.await;

/**
 * A three-master Redis Cluster started from the redis-server binary the embedded-redis
 * artifact ships: cluster mode on three free ports, slots assigned by the test, stopped
 * (processes and files) by {@link #close()}. With replicas, each master has one, which a
 * test may stop, or promote after killing its master: each node is its own process, ended
 * by its PID.
 *
 * @author Lease contributors
 */
public final class RedisTestCluster implements AutoCloseable {

	private static final int SLOTS = 16384;

	private static final int START_ATTEMPTS = 3;

	private final List<Integer> ports = new ArrayList<>();

	private final List<Process> processes = new ArrayList<>();

	// Each node's process by its port, masters and replicas; a node killed or stopped is
	// removed.
	private final Map<Integer, Process> live = new LinkedHashMap<>();

	// The replica started for each master, by the master's port.
	private final Map<Integer, Integer> replicas = new LinkedHashMap<>();

	private final List<Object> factories = new ArrayList<>();

	private final Path directory;

	public RedisTestCluster() {
		this(RedisTestServer.binary());
	}

	// binary: a redis-server executable of a version to test on.
	public RedisTestCluster(File binary) {
		this(binary, false);
	}

	// withReplicas: whether each master gets a replica of its own.
	public RedisTestCluster(File binary, boolean withReplicas) {
		try {
			this.directory = Files.createTempDirectory("lease-redis-cluster");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		// Test JVMs run at once (forks), each picking free ports: another JVM's node can
		// bind a port between its pick here and this node's start. The cluster is then
		// started afresh on other ports, before any test runs on it.
		for (int attempt = 1;; attempt++) {
			try {
				start(binary, withReplicas);
				return;
			}
			catch (IOException | RuntimeException ex) {
				close();
				this.ports.clear();
				this.processes.clear();
				this.replicas.clear();
				if (attempt == START_ATTEMPTS) {
					throw (ex instanceof IOException io) ? new UncheckedIOException(io) : (RuntimeException) ex;
				}
				System.err.println(
						"The test Redis Cluster did not start (attempt " + attempt + "), starting it again: " + ex);
			}
		}
	}

	private void start(File binary, boolean withReplicas) throws IOException {
		for (int i = 0; i < 3; i++) {
			this.ports.add(startNode(binary));
		}
		for (int i = 0; i < 3; i++) {
			int port = this.ports.get(i);
			int from = i * SLOTS / 3;
			int to = (i + 1) * SLOTS / 3;
			try (Jedis jedis = new Jedis("127.0.0.1", port)) {
				jedis.clusterAddSlots(IntStream.range(from, to).toArray());
				// A config epoch of its own, as redis-cli gives each master of a new
				// cluster: masters that share one settle it by bumping theirs later,
				// which can take back a slot moved meanwhile (see awaitAgreement).
				jedis.clusterSetConfigEpoch(i + 1);
			}
		}
		try (Jedis jedis = new Jedis("127.0.0.1", this.ports.get(0))) {
			for (int i = 1; i < 3; i++) {
				jedis.clusterMeet("127.0.0.1", this.ports.get(i));
			}
		}
		for (int port : this.ports) {
			await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> RedisClusterNodes.clusterOk(port, 3));
		}
		awaitAgreement();
		if (withReplicas) {
			addReplicas(binary);
		}
	}

	private int startNode(File binary) throws IOException {
		int port = RedisTestServer.freePort();
		Path dir = Files.createDirectories(this.directory.resolve(Integer.toString(port)));
		Process process = RedisClusterNodes.start(binary, port, dir);
		this.processes.add(process);
		this.live.put(port, process);
		RedisClusterNodes.requireOwn(port, process, dir);
		return port;
	}

	// One replica a master, online before the cluster is handed to the test.
	private void addReplicas(File binary) throws IOException {
		for (int master : this.ports) {
			this.replicas.put(master, startNode(binary));
		}
		RedisClusterReplicas.join(this.replicas, this.live.keySet());
		awaitAgreement();
	}

	// The port of the replica started for the master on the given port.
	public int replicaOf(int master) {
		Integer replica = this.replicas.get(master);
		if (replica == null) {
			throw new IllegalStateException("No replica was started for " + master);
		}
		return replica;
	}

	// Every replica stopped (SIGKILL to its PID), and each master has seen its replica
	// go.
	public void stopReplicas() {
		this.replicas.keySet().forEach(this::stopReplicaOf);
	}

	// The master's replica stopped (SIGKILL to its PID), and the master has seen it go.
	public void stopReplicaOf(int master) {
		kill(replicaOf(master));
		if (this.live.containsKey(master)) {
			await().atMost(Duration.ofSeconds(30)).until(() -> RedisClusterReplicas.connected(master) == 0);
		}
	}

	// kill -9 of the node's process: no shutdown, nothing saved.
	public void kill(int port) {
		Process process = this.live.remove(port);
		if (process != null) {
			process.destroyForcibly();
			RedisClusterNodes.waitFor(process);
		}
	}

	// The replica becomes its master's master, and the live nodes agree on it. takeOver:
	// without the agreement of the others, as after its master died (CLUSTER FAILOVER
	// TAKEOVER); else with its live master, which first lets it catch up and then turns
	// replica (CLUSTER FAILOVER).
	public void failOver(int replica, boolean takeOver) {
		RedisClusterReplicas.failOver(replica, takeOver);
		awaitAgreement();
	}

	/**
	 * Return the redis-server binaries to test a cluster on: the embedded artifact's, and
	 * the machine's own ({@code redis-server} on the path) where it has one.
	 * @return the executables
	 */
	public static List<File> binaries() {
		List<File> binaries = new ArrayList<>(List.of(RedisTestServer.binary()));
		String path = System.getenv("PATH");
		for (String dir : (path != null) ? path.split(File.pathSeparator) : new String[0]) {
			File candidate = new File(dir, "redis-server");
			if (candidate.canExecute()) {
				binaries.add(candidate);
				break;
			}
		}
		return binaries;
	}

	public String version() {
		try (Jedis jedis = new Jedis("127.0.0.1", anyLive())) {
			for (String line : jedis.info("server").split("\r?\n")) {
				if (line.startsWith("redis_version:")) {
					return line.substring("redis_version:".length());
				}
			}
			return "unknown";
		}
	}

	public List<Integer> ports() {
		return this.ports;
	}

	// Every node still running: the masters started first, then any replicas.
	public List<Integer> nodes() {
		return List.copyOf(this.live.keySet());
	}

	public long keysOn(int port) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			return jedis.dbSize();
		}
	}

	public int slotOf(String redisKey) {
		try (Jedis jedis = new Jedis("127.0.0.1", anyLive())) {
			return (int) jedis.clusterKeySlot(redisKey);
		}
	}

	// The port of the master serving the slot, as the first live node sees it.
	public int ownerOf(int slot) {
		try (Jedis jedis = new Jedis("127.0.0.1", anyLive())) {
			for (String line : jedis.clusterNodes().split("\n")) {
				String[] fields = line.trim().split(" ");
				for (int i = 8; i < fields.length; i++) {
					String[] range = fields[i].split("-");
					if (!range[0].startsWith("[") && Integer.parseInt(range[0]) <= slot
							&& slot <= Integer.parseInt(range[range.length - 1])) {
						return Integer
							.parseInt(fields[1].substring(fields[1].indexOf(':') + 1, fields[1].indexOf('@')));
					}
				}
			}
		}
		throw new IllegalStateException("No master serves slot " + slot);
	}

	// Until every node sees the same masters, config epochs and slots. A reshard's target
	// takes the slot with a config epoch above every one it knows of: were a master's
	// higher one not known to it yet (a new cluster settling its epochs, or just after a
	// move), the source's claim, sent before it is told of the move, would take the slot
	// back from the target, which drops the slot's keys and sharded subscriptions, and
	// the two masters would each name the other its owner.
	private void awaitAgreement() {
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.live.keySet().stream().map(RedisTestCluster::view).distinct().count() == 1);
	}

	private int anyLive() {
		return this.live.keySet().iterator().next();
	}

	// A node's view: each node's id, config epoch and slots (without the node's own
	// importing or migrating slots).
	private static List<String> view(int port) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			List<String> nodes = new ArrayList<>();
			for (String line : jedis.clusterNodes().split("\n")) {
				String[] fields = line.trim().split(" ");
				StringBuilder node = new StringBuilder(fields[0]).append(' ').append(fields[6]);
				for (int i = 8; i < fields.length; i++) {
					if (!fields[i].startsWith("[")) {
						node.append(' ').append(fields[i]);
					}
				}
				nodes.add(node.toString());
			}
			nodes.sort(Comparator.naturalOrder());
			return nodes;
		}
	}

	public String idOf(int port) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			return jedis.clusterMyId();
		}
	}

	// The first steps of a reshard of one slot: the target imports it, the source
	// migrates it. The masters agree on the slots and config epochs first (see
	// awaitAgreement).
	public void startMigration(int slot, int from, int to) {
		awaitAgreement();
		try (Jedis target = new Jedis("127.0.0.1", to); Jedis source = new Jedis("127.0.0.1", from)) {
			target.clusterSetSlotImporting(slot, idOf(from));
			source.clusterSetSlotMigrating(slot, idOf(to));
		}
	}

	// One MIGRATE batch from one master to another; throws Redis's error (BUSYKEY, for a
	// key that exists on the target).
	public String migrate(int from, int to, String... keys) {
		List<String> args = new ArrayList<>(List.of("127.0.0.1", Integer.toString(to), "", "0", "5000", "KEYS"));
		args.addAll(List.of(keys));
		try (Jedis source = new Jedis("127.0.0.1", from)) {
			Object reply = source.sendCommand(Protocol.Command.MIGRATE, args.toArray(String[]::new));
			return (reply instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
		}
	}

	// The last step: every master is told the slot's new owner, the target first.
	public void finishMigration(int slot, int from, int to) {
		List<Integer> order = new ArrayList<>(List.of(to, from));
		this.ports.stream().filter((port) -> !order.contains(port)).forEach(order::add);
		String target = idOf(to);
		for (int port : order) {
			try (Jedis jedis = new Jedis("127.0.0.1", port)) {
				jedis.clusterSetSlotNode(slot, target);
			}
		}
	}

	public long keysInSlot(int port, int slot) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			return jedis.clusterCountKeysInSlot(slot);
		}
	}

	private RedisClusterConfiguration configuration() {
		return new RedisClusterConfiguration(this.ports.stream().map((port) -> "127.0.0.1:" + port).toList());
	}

	public RedisConnectionFactory lettuce() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration());
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return factory;
	}

	public RedisConnectionFactory jedis() {
		JedisConnectionFactory factory = new JedisConnectionFactory(configuration());
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return factory;
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
		for (Process process : this.processes) {
			process.destroyForcibly();
			RedisClusterNodes.waitFor(process);
		}
		this.live.clear();
		if (this.directory != null) {
			try (var paths = Files.walk(this.directory)) {
				paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
			}
			catch (IOException ex) {
				// best effort
			}
		}
	}

}
