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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the plain handoff messages of {@link RedisLeaseHost} on a Redis Cluster: the
 * script publishes on the host's one channel (PUBLISH, not in the key's slot) from the
 * key's master, and a cluster delivers a PUBLISH to the subscribers of every node, so a
 * waiter's host hears it whichever master its subscription reached. Through Jedis, which
 * keeps the plain channel on every version; run on each redis-server this machine has
 * (the embedded artifact's 6.2, and the system's where there is one). Lettuce on Redis 7
 * shards them: {@link RedisClusterShardedHandoffIntegrationTests}.
 *
 * @author Lease contributors
 */
class RedisClusterHandoffIntegrationTests {

	private static final String PREFIX = "handoff-cluster:";

	static List<File> binaries() {
		return RedisTestCluster.binaries();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("binaries")
	@DisplayName("Operation 2: a handoff published from the key's master reaches a subscriber on every other master")
	void handoffReachesSubscribersOnEveryMaster(File binary) throws Exception {
		try (RedisTestCluster cluster = new RedisTestCluster(binary);
				RedisLeaseHost host = RedisLeaseHost.builder(cluster.jedis()).keyPrefix(PREFIX).build()) {
			LeaseKey key = LeaseKey.of("handoff-" + UUID.randomUUID());
			String redisKey = PREFIX + "{" + Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes()) + "}";
			int owner = cluster.ownerOf(cluster.slotOf(redisKey));
			List<Listener> listeners = new ArrayList<>();
			for (int port : cluster.ports()) {
				if (port != owner) {
					listeners.add(new Listener(port, PREFIX + "handoff"));
				}
			}
			try {
				for (Listener listener : listeners) {
					assertThat(listener.subscribed.await(10, TimeUnit.SECONDS)).as("subscribed").isTrue();
				}
				LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
				assertThat(host.tryTake(key, holder, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
				LeaseHolder waiter = LeaseHolder.of("waiter-" + UUID.randomUUID());
				CompletableFuture<TakeResult> take = CompletableFuture.supplyAsync(() -> {
					try {
						return host.take(key, waiter, Duration.ofSeconds(30));
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						throw new IllegalStateException(ex);
					}
				});
				await().atMost(Duration.ofSeconds(10)).until(() -> queued(owner, redisKey) == 1);
				assertThat(host.release(key, holder)).isInstanceOf(Released.class);
				assertThat(take.get(20, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
				for (Listener listener : listeners) {
					await().atMost(Duration.ofSeconds(10))
						.untilAsserted(() -> assertThat(listener.heard)
							.as("messages heard on master " + listener.port + " of Redis " + cluster.version())
							.anyMatch((message) -> message.startsWith(redisKey + " ")));
				}
				host.release(key, waiter);
			}
			finally {
				for (Listener listener : listeners) {
					listener.close();
				}
			}
		}
	}

	private static long queued(int port, String redisKey) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			return jedis.zcard((redisKey + ":q").getBytes(StandardCharsets.US_ASCII));
		}
	}

	/**
	 * A subscriber on one master, on a thread of its own.
	 */
	private static final class Listener extends JedisPubSub implements AutoCloseable {

		private final CountDownLatch subscribed = new CountDownLatch(1);

		private final List<String> heard = new CopyOnWriteArrayList<>();

		private final int port;

		private final Thread thread;

		Listener(int port, String channel) {
			this.port = port;
			this.thread = new Thread(() -> {
				try (Jedis jedis = new Jedis("127.0.0.1", port)) {
					jedis.subscribe(this, channel);
				}
			}, "subscriber-" + port);
			this.thread.start();
		}

		@Override
		public void onSubscribe(String channel, int subscribedChannels) {
			this.subscribed.countDown();
		}

		@Override
		public void onMessage(String channel, String message) {
			this.heard.add(message);
		}

		@Override
		public void close() throws InterruptedException {
			if (isSubscribed()) {
				unsubscribe();
			}
			this.thread.join(5000);
		}

	}

}
