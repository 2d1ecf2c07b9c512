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
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;

import dev.lease.LeaseHost;
import dev.lease.test.support.RedisTestServer;

/**
 * Tests for {@link RedisLeaseHost}: the whole conformance kit, through Lettuce, on the
 * server named by {@code LEASE_TEST_REDIS_URL} or an embedded one. Each client has a
 * class of its own, so that the build runs the two kits in JVMs side by side.
 *
 * @author Lease contributors
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LettuceRedisLeaseHostConformanceIntegrationTests {

	private RedisTestServer server;

	private RedisLeaseHost host;

	@BeforeAll
	void startHost() {
		this.server = RedisTestServer.start();
		// A prefix of its own on a shared server: grants() reads every key under it, and
		// a value there that is not lease state of this format fails the listing.
		String prefix = "lease-conformance-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		this.host = RedisLeaseHost.builder(this.server.lettuce()).keyPrefix(prefix).build();
	}

	@AfterAll
	void stopHost() {
		this.host.close();
		this.server.close();
	}

	@Nested
	@DisplayName("Lettuce")
	class Lettuce extends RedisLeaseHostConformance {

		@Override
		protected LeaseHost host() {
			return LettuceRedisLeaseHostConformanceIntegrationTests.this.host;
		}

	}

}
