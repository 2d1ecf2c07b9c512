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

import java.time.Duration;
import java.util.Collection;
import java.util.Map;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;

import static org.awaitility.Awaitility.await;

/**
 * The replicas of a {@link RedisTestCluster}: how a started node becomes a master's
 * replica, and how one takes its master's place.
 *
 * @author Lease contributors
 */
final class RedisClusterReplicas {

	private RedisClusterReplicas() {
	}

	// Each replica meets the cluster, replicates its master, and is online (its master
	// counts it). replicas: the replica's port by its master's; nodes: every node's.
	static void join(Map<Integer, Integer> replicas, Collection<Integer> nodes) {
		replicas.forEach((master, replica) -> {
			await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> RedisClusterNodes.ping(replica));
			try (Jedis jedis = new Jedis("127.0.0.1", master)) {
				jedis.clusterMeet("127.0.0.1", replica);
			}
		});
		for (int port : nodes) {
			await().atMost(Duration.ofSeconds(30))
				.ignoreExceptions()
				.until(() -> RedisClusterNodes.clusterOk(port, nodes.size()));
		}
		replicas.forEach((master, replica) -> {
			String id = nodeId(master);
			// a node met a moment ago may not know the master yet: asked until it does
			await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
				try (Jedis jedis = new Jedis("127.0.0.1", replica)) {
					return "OK".equals(jedis.clusterReplicate(id));
				}
			});
		});
		replicas.keySet()
			.forEach((master) -> await().atMost(Duration.ofSeconds(30))
				.ignoreExceptions()
				.until(() -> connected(master) == 1 && online(master)));
	}

	private static String nodeId(int port) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			return jedis.clusterMyId();
		}
	}

	// How many replicas the master counts as connected.
	static int connected(int master) {
		try (Jedis jedis = new Jedis("127.0.0.1", master)) {
			for (String line : jedis.info("replication").split("\r?\n")) {
				if (line.startsWith("connected_slaves:")) {
					return Integer.parseInt(line.substring("connected_slaves:".length()).trim());
				}
			}
			return 0;
		}
	}

	private static boolean online(int master) {
		try (Jedis jedis = new Jedis("127.0.0.1", master)) {
			return jedis.info("replication").contains("state=online");
		}
	}

	// CLUSTER FAILOVER, with TAKEOVER: the replica claims its master's slots without the
	// master's or the other masters' agreement, as after its master died.
	static void failOver(int replica, boolean takeOver) {
		try (Jedis jedis = new Jedis("127.0.0.1", replica)) {
			if (takeOver) {
				jedis.sendCommand(Protocol.Command.CLUSTER, "FAILOVER", "TAKEOVER");
			}
			else {
				jedis.sendCommand(Protocol.Command.CLUSTER, "FAILOVER");
			}
		}
		await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
			try (Jedis jedis = new Jedis("127.0.0.1", replica)) {
				return jedis.info("replication").contains("role:master");
			}
		});
	}

}
