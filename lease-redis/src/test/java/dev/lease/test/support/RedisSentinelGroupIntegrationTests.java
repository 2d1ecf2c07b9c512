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
import java.util.UUID;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseKey;

import static org.awaitility.Awaitility.await;

/**
 * The Sentinel group the failover tests run on: a replica held back stays held back.
 *
 * @author Lease contributors
 */
class RedisSentinelGroupIntegrationTests {

	private static final String PREFIX = "held:";

	@Test
	@DisplayName("Test support: a write made once replication is held never reaches the replica, past the Sentinels' second look at it (10 s), when a Sentinel repoints a replica that replicates from another address")
	void heldReplicationStaysHeldWhileTheSentinelsWatch() {
		RedisClient client = RedisClient.create();
		try (RedisSentinelGroup group = RedisSentinelGroup.start();
				StatefulRedisConnection<String, String> primary = client
					.connect(RedisURI.create("redis://127.0.0.1:" + group.primaryPort()))) {
			LeaseKey before = LeaseKey.of("before-" + UUID.randomUUID());
			primary.sync().set(group.redisKey(PREFIX, before), "1");
			await("a write before the hold reaches the replica").atMost(Duration.ofSeconds(20))
				.until(() -> group.replicaHasKey(PREFIX, before));
			group.holdReplication();
			LeaseKey after = LeaseKey.of("after-" + UUID.randomUUID());
			primary.sync().set(group.redisKey(PREFIX, after), "1");
			await("the replica lacks the write made after the hold").during(Duration.ofSeconds(15))
				.atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> !group.replicaHasKey(PREFIX, after));
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

}
