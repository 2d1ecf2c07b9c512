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

import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHost;
import dev.lease.test.support.RedisTestServer;

/**
 * The whole conformance kit against a {@link RedisLeaseHost} through one client, on the
 * server named by {@code LEASE_TEST_REDIS_URL} or an embedded one. Each client has a
 * class of its own, so that the build runs the kits in JVMs side by side.
 *
 * @author Lease contributors
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractRedisLeaseHostConformanceIntegrationTests {

	private RedisTestServer server;

	private RedisLeaseHost host;

	// The client's connection factory to the server.
	abstract RedisConnectionFactory client(RedisTestServer server);

	@BeforeAll
	void startHost() {
		this.server = RedisTestServer.start();
		// A prefix of its own on a shared server: grants() reads every key under it, and
		// a value there that is not lease state of this format fails the listing.
		String prefix = "lease-conformance-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		this.host = RedisLeaseHost.builder(client(this.server)).keyPrefix(prefix).build();
	}

	@AfterAll
	void stopHost() {
		this.host.close();
		this.server.close();
	}

	@Nested
	class Kit extends RedisLeaseHostConformance {

		@Override
		protected LeaseHost host() {
			return AbstractRedisLeaseHostConformanceIntegrationTests.this.host;
		}

	}

}
