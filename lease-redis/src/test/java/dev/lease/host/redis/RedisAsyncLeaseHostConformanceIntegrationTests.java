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
import org.junit.jupiter.api.TestInstance;

import dev.lease.LeaseHost;
import dev.lease.tck.AsyncLeaseHostAdapter;
import dev.lease.test.support.RedisTestServer;

/**
 * Tests for {@link RedisLeaseHost#async()}: the whole conformance kit through Lettuce,
 * every question asked through the non-blocking view, on the server named by
 * {@code LEASE_TEST_REDIS_URL} or an embedded one.
 *
 * @author Lease contributors
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisAsyncLeaseHostConformanceIntegrationTests extends RedisLeaseHostConformance {

	private RedisTestServer server;

	private RedisLeaseHost lettuce;

	private LeaseHost adapter;

	@BeforeAll
	void startHost() {
		this.server = RedisTestServer.start();
		// A prefix of its own on a shared server: grants() reads every key under it.
		String prefix = "lease-async-conformance-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		this.lettuce = RedisLeaseHost.builder(this.server.lettuce()).keyPrefix(prefix).build();
		this.adapter = new AsyncLeaseHostAdapter(this.lettuce);
	}

	@AfterAll
	void stopHost() {
		if (this.lettuce != null) {
			this.lettuce.close();
		}
		if (this.server != null) {
			this.server.close();
		}
	}

	@Override
	protected LeaseHost host() {
		return this.adapter;
	}

}
