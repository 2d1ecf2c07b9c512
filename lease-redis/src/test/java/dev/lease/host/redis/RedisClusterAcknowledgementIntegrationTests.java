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
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;

import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Replicas-to-ack on a Redis Cluster through Lettuce: a grant is answered {@code Taken}
 * once the replicas of the master serving its key's slot have it, so it outlives that
 * master's failover; a grant too few of them acknowledged is given back. The clusters
 * (three masters, one replica each) are started by the tests.
 *
 * @author Lease contributors
 */
class RedisClusterAcknowledgementIntegrationTests {

	private static final String PREFIX = "acked:";

	private static final Duration TERM = Duration.ofMinutes(2);

	// Generous: the replicas answer at once unless they are gone.
	private static final Duration REPLICA_TIMEOUT = Duration.ofSeconds(10);

	// The newest server only (the machine's own where it has one): clusters with replicas
	// are the build's costliest to start, and WAIT and the calls around it are the same
	// on every version.
	static List<File> binaries() {
		List<File> binaries = RedisTestCluster.binaries();
		return List.of(binaries.get(binaries.size() - 1));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("binaries")
	@DisplayName("Invariant 2.2: with replicas-to-ack on a cluster, a grant outlives the failover of its slot's master: the promoted replica holds it and a second holder is refused")
	void grantOutlivesAFailoverOfItsMaster(File binary) {
		try (RedisTestCluster cluster = new RedisTestCluster(binary, true)) {
			LeaseKey key = LeaseKey.of("failover-" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
			int master;
			try (RedisLeaseHost host = RedisLeaseHost.builder(cluster.lettuce())
				.keyPrefix(PREFIX)
				.replicasToAck(1, REPLICA_TIMEOUT)
				.build()) {
				assertThat(host.tryTake(key, holder, TERM)).isInstanceOf(Taken.class);
				master = cluster.ownerOf(cluster.slotOf(redisKey(key)));
				// kill -9 at once: the grant is on the replica only if it was
				// acknowledged
				cluster.kill(master);
			}
			int promoted = cluster.replicaOf(master);
			cluster.failOver(promoted, true);
			assertThat(cluster.ownerOf(cluster.slotOf(redisKey(key)))).isEqualTo(promoted);
			try (RedisLeaseHost after = RedisLeaseHost.builder(cluster.lettuce()).keyPrefix(PREFIX).build()) {
				assertThat(after.grant(key))
					.hasValueSatisfying((lease) -> assertThat(lease.holder()).isEqualTo(holder));
				assertThat(after.tryTake(key, LeaseHolder.of("second-" + UUID.randomUUID()), TERM))
					.isInstanceOf(Held.class);
				assertThat(after.remaining(key, holder)).isPresent();
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("binaries")
	@DisplayName("Invariant 2.2, Operation 11: with replicas-to-ack on a cluster, a grant (blocking or non-blocking take) is on its slot's replica before the take answers, and so is the end of a release; a host that runs through a CLUSTER FAILOVER confirms its next grant in the slot on the new master, and the grant is on the old one, now its replica")
	void grantIsOnTheReplicaBeforeTheTakeAnswersAlsoThroughAFailover(File binary) throws Exception {
		try (RedisTestCluster cluster = new RedisTestCluster(binary, true);
				RedisLeaseHost host = RedisLeaseHost.builder(cluster.lettuce())
					.keyPrefix(PREFIX)
					.replicasToAck(1, REPLICA_TIMEOUT)
					.build()) {
			LeaseKey blockingKey = LeaseKey.of("blocking-" + UUID.randomUUID());
			LeaseHolder taker = LeaseHolder.of("taker-" + UUID.randomUUID());
			assertThat(host.take(blockingKey, taker, TERM)).isInstanceOf(Taken.class);
			assertOnReplica(cluster, blockingKey, true);
			LeaseKey asyncKey = LeaseKey.of("async-" + UUID.randomUUID());
			assertThat(host.async().take(asyncKey, taker, TERM).get(2, TimeUnit.MINUTES)).isInstanceOf(Taken.class);
			assertOnReplica(cluster, asyncKey, true);
			assertThat(host.release(blockingKey, taker)).isInstanceOf(Released.class);
			assertOnReplica(cluster, blockingKey, false);
			LeaseKey key = LeaseKey.of("through-" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
			assertThat(host.take(key, holder, TERM)).isInstanceOf(Taken.class);
			int master = cluster.ownerOf(cluster.slotOf(redisKey(key)));
			int promoted = cluster.replicaOf(master);
			cluster.failOver(promoted, false);
			// released and taken again through the host whose client still names the old
			// master
			assertThat(host.release(key, holder)).isInstanceOf(Released.class);
			assertThat(host.take(key, holder, TERM)).isInstanceOf(Taken.class);
			byte[] name = redisKey(key).getBytes(StandardCharsets.US_ASCII);
			try (Jedis oldMaster = new Jedis("127.0.0.1", master); Jedis newMaster = new Jedis("127.0.0.1", promoted)) {
				oldMaster.readonly();
				assertThat(oldMaster.get(name)).as("the grant on the old master, now a replica")
					.isEqualTo(newMaster.get(name))
					.isNotNull();
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("binaries")
	@DisplayName("Invariant 2.2, Operation 11: with replicas-to-ack on a cluster, a take whose slot's master lost its replica fails and its grant is given back, while a key of another master, with its replica, is granted")
	void grantTooFewReplicasAcknowledgedIsGivenBack(File binary) throws Exception {
		try (RedisTestCluster cluster = new RedisTestCluster(binary, true);
				RedisLeaseHost host = RedisLeaseHost.builder(cluster.lettuce())
					.keyPrefix(PREFIX)
					.replicasToAck(1, Duration.ofMillis(500))
					.build()) {
			LeaseKey key = LeaseKey.of("unreplicated-" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
			int master = cluster.ownerOf(cluster.slotOf(redisKey(key)));
			LeaseKey elsewhere;
			do {
				elsewhere = LeaseKey.of("replicated-" + UUID.randomUUID());
			}
			while (cluster.ownerOf(cluster.slotOf(redisKey(elsewhere))) == master);
			// Only the key's master is without a replica: a WAIT sent to another master
			// would count that one's.
			cluster.stopReplicaOf(master);
			assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> host.take(key, holder, TERM))
				.withMessageContaining("Only 0 of 1 replicas acknowledged")
				.withMessageContaining("the grant was given back");
			assertThat(host.grant(key)).isEmpty();
			try (Jedis jedis = new Jedis("127.0.0.1", master)) {
				assertThat(jedis.exists(redisKey(key))).as("the lease's key on its master").isFalse();
			}
			assertThat(host.take(elsewhere, holder, TERM)).isInstanceOf(Taken.class);
			assertOnReplica(cluster, elsewhere, true);
		}
	}

	// Whether the replica of the key's master has the key, read there (READONLY), and
	// with the master's value.
	private static void assertOnReplica(RedisTestCluster cluster, LeaseKey key, boolean present) {
		String redisKey = redisKey(key);
		int master = cluster.ownerOf(cluster.slotOf(redisKey));
		try (Jedis replica = new Jedis("127.0.0.1", cluster.replicaOf(master));
				Jedis primary = new Jedis("127.0.0.1", master)) {
			replica.readonly();
			byte[] name = redisKey.getBytes(StandardCharsets.US_ASCII);
			byte[] value = replica.get(name);
			if (present) {
				assertThat(value).as("the grant on the replica of master %d", master).isEqualTo(primary.get(name));
			}
			else {
				assertThat(value).as("the lease's key on the replica of master %d", master).isNull();
			}
		}
	}

	private static String redisKey(LeaseKey key) {
		return new String(new RedisKeyCodec(PREFIX).redisKey(key), StandardCharsets.US_ASCII);
	}

}
