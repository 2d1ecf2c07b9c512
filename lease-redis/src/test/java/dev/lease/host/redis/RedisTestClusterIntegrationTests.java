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

import java.io.File;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

import dev.lease.test.support.RedisTestCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link RedisTestCluster}: the reshard steps the cluster tests take move a
 * slot for good, whatever the masters' config epochs were a moment before.
 *
 * @author Lease contributors
 */
class RedisTestClusterIntegrationTests {

	static List<File> binaries() {
		return RedisTestCluster.binaries();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("binaries")
	@DisplayName("Non-goal 3, Operation 4 (the premise of the reshard tests): a slot moved with the test cluster's steps stays on its target, keys included, when a master's config epoch changed just before the move and the source's claim reaches the target before the source is told")
	void movedSlotStaysOnItsTargetWhenTheSourceClaimsItLate(File binary) {
		try (RedisTestCluster cluster = new RedisTestCluster(binary)) {
			// The target holds the highest config epoch: it takes the slot with that one
			// unless it has heard of a higher one.
			int to = cluster.ports()
				.stream()
				.max(Comparator.comparingLong(RedisTestClusterIntegrationTests::myEpoch))
				.orElseThrow();
			int from = cluster.ports().stream().filter((port) -> port != to).findFirst().orElseThrow();
			String key = keyServedBy(cluster, from);
			int slot = cluster.slotOf(key);
			try (Jedis jedis = new Jedis("127.0.0.1", from)) {
				jedis.set(key, "moved");
				// an epoch the others have not heard of yet, as on a new cluster or just
				// after a move
				jedis.clusterBumpEpoch();
			}
			cluster.startMigration(slot, from, to);
			cluster.migrate(from, to, key);
			String target = cluster.idOf(to);
			long told;
			try (Jedis jedis = new Jedis("127.0.0.1", to)) {
				jedis.clusterSetSlotNode(slot, target);
				told = millis(jedis);
			}
			// as when the thread moving the slot is slow: the source, still serving it,
			// answers the target's ping before it is told
			String source = cluster.idOf(from);
			await().atMost(Duration.ofSeconds(60)).until(() -> pongReceived(to, source) > told);
			for (int port : cluster.ports()) {
				if (port != to) {
					try (Jedis jedis = new Jedis("127.0.0.1", port)) {
						jedis.clusterSetSlotNode(slot, target);
					}
				}
			}
			Map<Integer, String> served = new TreeMap<>();
			for (int port : cluster.ports()) {
				served.put(port, (port == to) ? "1" : "MOVED " + slot + " 127.0.0.1:" + to);
			}
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(answers(cluster, key))
					.as("each master's answer to EXISTS on the moved key (Redis %s, source %d, target %d)",
							cluster.version(), from, to)
					.isEqualTo(served));
		}
	}

	private static long myEpoch(int port) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			return Long.parseLong(jedis.clusterInfo().replaceAll("(?s).*cluster_my_epoch:(\\d+).*", "$1"));
		}
	}

	private static String keyServedBy(RedisTestCluster cluster, int port) {
		for (int i = 0;; i++) {
			String key = "moved:{" + i + "}";
			if (cluster.ownerOf(cluster.slotOf(key)) == port) {
				return key;
			}
		}
	}

	// The server's clock, in milliseconds, as its cluster bus stamps what it receives.
	private static long millis(Jedis jedis) {
		List<String> time = jedis.time();
		return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
	}

	// When the node at the port last received a pong from the node with the id, on its
	// clock in milliseconds.
	private static long pongReceived(int port, String id) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			for (String line : jedis.clusterNodes().split("\n")) {
				String[] fields = line.trim().split(" ");
				if (fields[0].equals(id)) {
					return Long.parseLong(fields[5]);
				}
			}
		}
		return 0;
	}

	private static Map<Integer, String> answers(RedisTestCluster cluster, String key) {
		Map<Integer, String> answers = new TreeMap<>();
		for (int port : cluster.ports()) {
			try (Jedis jedis = new Jedis("127.0.0.1", port)) {
				answers.put(port, jedis.exists(key) ? "1" : "0");
			}
			catch (JedisDataException ex) {
				answers.put(port, ex.getMessage());
			}
		}
		return answers;
	}

}
