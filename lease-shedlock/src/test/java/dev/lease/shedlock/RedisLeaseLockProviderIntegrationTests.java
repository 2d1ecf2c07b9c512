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

package dev.lease.shedlock;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import dev.lease.LeaseHost;
import dev.lease.host.redis.RedisLeaseHost;
import dev.lease.test.support.RedisTestServer;

/**
 * Tests for {@link LeaseLockProvider} over a {@link RedisLeaseHost} on the server named
 * by {@code LEASE_TEST_REDIS_URL}, else an embedded one: ShedLock's provider suite and
 * the lease's own checks.
 *
 * @author Lease contributors
 */
class RedisLeaseLockProviderIntegrationTests extends LeaseLockProviderConformance {

	private static RedisTestServer server;

	private static RedisLeaseHost host;

	@BeforeAll
	static void startHost() {
		server = RedisTestServer.start();
		host = RedisLeaseHost.builder(server.lettuce()).build();
	}

	@AfterAll
	static void stopHost() {
		if (host != null) {
			host.close();
		}
		if (server != null) {
			server.close();
		}
	}

	@Override
	protected LeaseHost host() {
		return host;
	}

}
