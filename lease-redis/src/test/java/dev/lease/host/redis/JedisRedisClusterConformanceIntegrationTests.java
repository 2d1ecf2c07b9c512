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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RedisLeaseHost} on a real three-master Redis Cluster started by the
 * test: the whole conformance kit through Jedis, with keys spread over every master,
 * taken through Lettuce and listed through Jedis, and what a cluster reads and refuses at
 * start (durability of every node, replicas-to-ack). The kit through Lettuce runs in
 * {@link LettuceRedisClusterConformanceIntegrationTests}, so that the build runs the two
 * kits in JVMs side by side.
 *
 * @author Lease contributors
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JedisRedisClusterConformanceIntegrationTests {

	private RedisTestCluster cluster;

	private RedisLeaseHost lettuce;

	private RedisLeaseHost jedis;

	@BeforeAll
	void startCluster() {
		this.cluster = new RedisTestCluster();
		this.lettuce = RedisLeaseHost.builder(this.cluster.lettuce()).build();
		this.jedis = RedisLeaseHost.builder(this.cluster.jedis()).build();
	}

	@AfterAll
	void stopCluster() {
		this.lettuce.close();
		this.jedis.close();
		this.cluster.close();
	}

	@Test
	@DisplayName("Cluster: every key of one lease is in one slot, and leases spread over every master")
	void leasesSpreadOverEveryMaster() {
		LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
		List<LeaseKey> keys = new ArrayList<>();
		for (int i = 0; i < 60; i++) {
			LeaseKey key = LeaseKey.of("spread-" + UUID.randomUUID());
			keys.add(key);
			assertThat(this.lettuce.tryTake(key, holder, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
		}
		for (int port : this.cluster.ports()) {
			assertThat(this.cluster.keysOn(port)).as("keys on " + port).isPositive();
		}
		assertThat(this.jedis.grants(1000)).hasSizeGreaterThanOrEqualTo(60);
		for (LeaseKey key : keys) {
			this.jedis.release(key, holder);
		}
	}

	@Test
	@DisplayName("Host: durability. On a cluster the settings of every node are read, the weakest deciding; replicas-to-ack through Jedis, whose WAIT may not go out on the connection that wrote the grant, fails the start")
	void durabilityOfEveryNodeAndReplicasToAckRefused() {
		// The test's cluster runs without the append-only file.
		assertThat(this.jedis.durability().status()).isEqualTo(RedisDurability.Status.NOT_DURABLE);
		assertThat(this.jedis.durability().reason()).contains("node ").contains("appendonly is 'no'");
		assertThatExceptionOfType(RedisReplicasToAckUnsupportedException.class)
			.isThrownBy(
					() -> RedisLeaseHost.builder(this.cluster.jedis()).replicasToAck(1, Duration.ofSeconds(1)).build())
			.withMessageContaining("not supported on a Redis Cluster through Jedis");
	}

	@Nested
	@DisplayName("Jedis")
	class Jedis extends RedisLeaseHostConformance {

		@Override
		protected LeaseHost host() {
			return JedisRedisClusterConformanceIntegrationTests.this.jedis;
		}

	}

}
