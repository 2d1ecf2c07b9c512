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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;

import dev.lease.LeaseHost;
import dev.lease.test.support.RedisTestCluster;

/**
 * Tests for {@link RedisLeaseHost} on a real three-master Redis Cluster started by the
 * test: the whole conformance kit through Lettuce (through Jedis in
 * {@link JedisRedisClusterConformanceIntegrationTests}).
 *
 * @author Lease contributors
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LettuceRedisClusterConformanceIntegrationTests {

	private RedisTestCluster cluster;

	private RedisLeaseHost host;

	@BeforeAll
	void startCluster() {
		this.cluster = new RedisTestCluster();
		this.host = RedisLeaseHost.builder(this.cluster.lettuce()).build();
	}

	@AfterAll
	void stopCluster() {
		this.host.close();
		this.cluster.close();
	}

	@Nested
	@DisplayName("Lettuce")
	class Lettuce extends RedisLeaseHostConformance {

		@Override
		protected LeaseHost host() {
			return LettuceRedisClusterConformanceIntegrationTests.this.host;
		}

	}

}
