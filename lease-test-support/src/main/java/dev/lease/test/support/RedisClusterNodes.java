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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import redis.clients.jedis.Jedis;

import static org.awaitility.Awaitility.await;

/**
 * What a test cluster asks of one of its nodes, by port.
 *
 * @author Lease contributors
 */
final class RedisClusterNodes {

	private RedisClusterNodes() {
	}

	// A node in cluster mode on the port, its files and log in the directory.
	static Process start(File binary, int port, Path dir) throws IOException {
		return new ProcessBuilder(binary.getAbsolutePath(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
				"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--dir", dir.toString(), "--save",
				"", "--appendonly", "no")
			.redirectErrorStream(true)
			.redirectOutput(dir.resolve("redis.log").toFile())
			.start();
	}

	// Only a node of the cluster's own is set up: one that lost its port (or its bus
	// port) to another process exits, and the port then answers for that process.
	static void requireOwn(int port, Process process, Path dir) throws IOException {
		await().atMost(Duration.ofSeconds(10)).until(() -> !process.isAlive() || pid(port) == process.pid());
		if (!process.isAlive()) {
			throw new IllegalStateException(
					"The Redis Cluster node on port " + port + " did not start, its port or its bus port taken: "
							+ Files.readString(dir.resolve("redis.log")).strip());
		}
	}

	static boolean ping(int port) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			return "PONG".equals(jedis.ping());
		}
	}

	static boolean clusterOk(int port, int nodes) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			String info = jedis.clusterInfo();
			return info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + nodes);
		}
	}

	// The process id of the server answering on the port, or -1.
	static long pid(int port) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			String info = jedis.info("server");
			return info.lines()
				.filter((line) -> line.startsWith("process_id:"))
				.mapToLong((line) -> Long.parseLong(line.substring("process_id:".length()).strip()))
				.findFirst()
				.orElse(-1);
		}
		catch (RuntimeException ex) {
			return -1;
		}
	}

	static void waitFor(Process process) {
		try {
			process.waitFor();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
