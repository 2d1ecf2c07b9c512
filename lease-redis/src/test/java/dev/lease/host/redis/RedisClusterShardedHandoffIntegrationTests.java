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
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the sharded handoff messages of {@link RedisLeaseHost} on a Redis Cluster
 * through Lettuce: where every master has sharded pub/sub (Redis 7.0), a handoff is
 * published with SPUBLISH on a channel in the key's slot and a host subscribes with
 * SSUBSCRIBE on the masters serving the slots its waiters wait in, following a slot that
 * moves; on a server without it (6.2), on the one plain channel. One host holds and
 * releases, another waits (blocking, or through its non-blocking view): the waiter's host
 * hears of the handoff only through a message (or, much later, by asking at the standing
 * grant's expiry or its bound).
 *
 * @author Lease contributors
 */
class RedisClusterShardedHandoffIntegrationTests {

	private static final String PREFIX = "sharded:";

	// Long enough that a waiter answered before its bound was woken by a message: without
	// one it asks at the standing grant's expiry, after its bound.
	private static final Duration HOLDER_TERM = Duration.ofSeconds(120);

	private static final Duration WAITER_BOUND = Duration.ofSeconds(60);

	static List<File> binaries() {
		return RedisTestCluster.binaries();
	}

	static List<Arguments> servers() {
		List<Arguments> servers = new ArrayList<>();
		for (File binary : binaries()) {
			servers.add(Arguments.of(binary, "blocking"));
			servers.add(Arguments.of(binary, "async"));
		}
		return servers;
	}

	// One waiter kind per server, the kinds taking turns: a cluster with replicas is
	// costly to start, and the subscription a failover moves is the host's, whichever
	// waits.
	static List<Arguments> serversTakingTurns() {
		List<Arguments> servers = new ArrayList<>();
		List<File> binaries = binaries();
		for (int i = 0; i < binaries.size(); i++) {
			servers.add(Arguments.of(binaries.get(i), (i % 2 == 0) ? "async" : "blocking"));
		}
		return servers;
	}

	@ParameterizedTest(name = "{1} waiter on {0}")
	@MethodSource("servers")
	@DisplayName("Operation 2: on a cluster with sharded pub/sub a handoff reaches the waiter's host on the key's slot channel; on one without, on the plain channel")
	void handoffTravelsOnTheKeysSlotChannel(File binary, String waiter) throws Exception {
		try (RedisTestCluster cluster = new RedisTestCluster(binary);
				RedisLeaseHost holding = RedisLeaseHost.builder(cluster.lettuce()).keyPrefix(PREFIX).build();
				RedisLeaseHost waiting = RedisLeaseHost.builder(cluster.lettuce()).keyPrefix(PREFIX).build()) {
			Setup setup = new Setup(cluster, holding, waiting, "async".equals(waiter));
			assertSubscribedWhereTheSlotIs(cluster, setup, setup.owner);
			setup.releaseAndAssertPromptHandoff();
		}
	}

	@ParameterizedTest(name = "{1} waiter on {0}")
	@MethodSource("servers")
	@DisplayName("Operation 2, Operation 4: after a reshard moves the key's slot, the waiter's host subscribes on the slot's new master and still hears the handoff")
	void subscriptionFollowsTheSlotThroughAReshard(File binary, String waiter) throws Exception {
		try (RedisTestCluster cluster = new RedisTestCluster(binary);
				RedisLeaseHost holding = RedisLeaseHost.builder(cluster.lettuce()).keyPrefix(PREFIX).build();
				RedisLeaseHost waiting = RedisLeaseHost.builder(cluster.lettuce()).keyPrefix(PREFIX).build()) {
			Setup setup = new Setup(cluster, holding, waiting, "async".equals(waiter));
			assertSubscribedWhereTheSlotIs(cluster, setup, setup.owner);
			int to = cluster.ports().stream().filter((port) -> port != setup.owner).findFirst().orElseThrow();
			cluster.startMigration(setup.slot, setup.owner, to);
			cluster.migrate(setup.owner, to, setup.redisKey, setup.redisKey + ":q", setup.redisKey + ":w");
			cluster.finishMigration(setup.slot, setup.owner, to);
			assertSubscribedWhereTheSlotIs(cluster, setup, to);
			setup.releaseAndAssertPromptHandoff();
		}
	}

	@ParameterizedTest(name = "{1} waiter on {0}")
	@MethodSource("serversTakingTurns")
	@DisplayName("Operation 2: after the key's master fails over to its replica (CLUSTER FAILOVER), the waiter's host subscribes on the new master and still hears the handoff")
	void subscriptionFollowsTheSlotThroughAFailover(File binary, String waiter) throws Exception {
		try (RedisTestCluster cluster = new RedisTestCluster(binary, true);
				RedisLeaseHost holding = RedisLeaseHost.builder(cluster.lettuce()).keyPrefix(PREFIX).build();
				RedisLeaseHost waiting = RedisLeaseHost.builder(cluster.lettuce()).keyPrefix(PREFIX).build()) {
			Setup setup = new Setup(cluster, holding, waiting, "async".equals(waiter));
			assertSubscribedWhereTheSlotIs(cluster, setup, setup.owner);
			int promoted = cluster.replicaOf(setup.owner);
			cluster.failOver(promoted, false);
			assertThat(cluster.ownerOf(setup.slot)).isEqualTo(promoted);
			assertSubscribedWhereTheSlotIs(cluster, setup, promoted, setup.owner);
			setup.releaseAndAssertPromptHandoff();
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("binaries")
	@DisplayName("Operation 2: after the waiter's host's subscription is cut, it is made again where the slot is and still hears the handoff")
	void subscriptionIsMadeAgainAfterItsConnectionIsCut(File binary) throws Exception {
		try (RedisTestCluster cluster = new RedisTestCluster(binary);
				RedisLeaseHost holding = RedisLeaseHost.builder(cluster.lettuce()).keyPrefix(PREFIX).build();
				RedisLeaseHost waiting = RedisLeaseHost.builder(cluster.lettuce()).keyPrefix(PREFIX).build()) {
			Setup setup = new Setup(cluster, holding, waiting, false);
			assertSubscribedWhereTheSlotIs(cluster, setup, setup.owner);
			for (int port : cluster.ports()) {
				try (Jedis jedis = new Jedis("127.0.0.1", port)) {
					jedis.sendCommand(Protocol.Command.CLIENT, "KILL", "TYPE", "pubsub");
				}
			}
			assertSubscribedWhereTheSlotIs(cluster, setup, setup.owner);
			setup.releaseAndAssertPromptHandoff();
		}
	}

	// On Redis 7: a sharded subscription in the key's slot on a node of its shard (its
	// master, or after a failover also the replica the old master became, which serves
	// the shard's messages), none on the plain channel anywhere; on 6.2 (which has no
	// PUBSUB SHARDCHANNELS): the plain channel.
	private static void assertSubscribedWhereTheSlotIs(RedisTestCluster cluster, Setup setup, int... shard) {
		boolean sharded = !cluster.version().startsWith("6.");
		String version = "Redis " + cluster.version();
		if (sharded) {
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(
						Arrays.stream(shard).boxed().flatMap((node) -> shardChannels(node).stream()).toList())
					.as("sharded channels with subscribers on the slot's shard %s (%s)", Arrays.toString(shard),
							version)
					.anySatisfy((channel) -> assertThat(cluster.slotOf(channel)).isEqualTo(setup.slot)));
		}
		// each of the two hosts subscribes once, on any node, where the plain channel
		// serves
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(plainSubscribers(cluster))
				.as("subscribers of the plain channel on every master (%s)", version)
				.isEqualTo(sharded ? 0 : 2));
	}

	private static long plainSubscribers(RedisTestCluster cluster) {
		return cluster.nodes().stream().mapToLong((port) -> {
			try (Jedis jedis = new Jedis("127.0.0.1", port)) {
				return jedis.pubsubNumSub(PREFIX + "handoff").get(PREFIX + "handoff");
			}
		}).sum();
	}

	private static List<String> shardChannels(int port) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			return jedis.pubsubShardChannels(PREFIX + "*");
		}
	}

	/**
	 * A key held through one host, with a waiter queued through the other.
	 */
	private static final class Setup {

		private final RedisLeaseHost holding;

		private final LeaseKey key = LeaseKey.of("sharded-" + UUID.randomUUID());

		private final LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());

		private final String redisKey;

		private final int slot;

		private final int owner;

		private final long takeStart;

		private final CompletableFuture<TakeResult> take;

		Setup(RedisTestCluster cluster, RedisLeaseHost holding, RedisLeaseHost waiting, boolean async) {
			this.holding = holding;
			this.redisKey = PREFIX + "{" + Base64.getUrlEncoder().withoutPadding().encodeToString(this.key.bytes())
					+ "}";
			this.slot = cluster.slotOf(this.redisKey);
			this.owner = cluster.ownerOf(this.slot);
			assertThat(holding.tryTake(this.key, this.holder, HOLDER_TERM)).isInstanceOf(Taken.class);
			LeaseHolder waiter = LeaseHolder.of("waiter-" + UUID.randomUUID());
			this.takeStart = System.nanoTime();
			this.take = async ? waiting.async().take(this.key, waiter, WAITER_BOUND)
					: CompletableFuture.supplyAsync(() -> {
						try {
							return waiting.take(this.key, waiter, WAITER_BOUND);
						}
						catch (InterruptedException ex) {
							Thread.currentThread().interrupt();
							throw new IllegalStateException(ex);
						}
					});
			await().atMost(Duration.ofSeconds(30)).until(() -> queued(this.owner, this.redisKey) == 1);
		}

		// The waiter is answered Taken before its bound: only a message wakes it that
		// early, since the host that released is not the waiter's.
		void releaseAndAssertPromptHandoff() throws Exception {
			assertThat(this.holding.release(this.key, this.holder)).isInstanceOf(Released.class);
			TakeResult result = this.take.get(WAITER_BOUND.toSeconds() + 30, TimeUnit.SECONDS);
			long answeredAfterNanos = System.nanoTime() - this.takeStart;
			assertThat(result).isInstanceOf(Taken.class);
			assertThat(Duration.ofNanos(answeredAfterNanos))
				.as("time from the take to its answer, against the waiter's bound")
				.isLessThan(WAITER_BOUND);
		}

		private static long queued(int port, String redisKey) {
			try (Jedis jedis = new Jedis("127.0.0.1", port)) {
				return jedis.zcard((redisKey + ":q").getBytes(StandardCharsets.US_ASCII));
			}
		}

	}

}
