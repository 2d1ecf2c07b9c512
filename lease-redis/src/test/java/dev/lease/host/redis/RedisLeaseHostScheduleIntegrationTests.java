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

import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import dev.lease.LeaseHost;
import dev.lease.tck.history.LeaseHostScheduleProperties;
import dev.lease.test.support.RedisTestServer;

/**
 * Tests for {@link RedisLeaseHost}: random schedules, checked against the atom.
 *
 * @author Lease contributors
 */
class RedisLeaseHostScheduleIntegrationTests extends LeaseHostScheduleProperties {

	private static RedisTestServer server;

	private static RedisLeaseHost host;

	@BeforeContainer
	static void startHost() {
		server = RedisTestServer.start();
		// A prefix of its own: grants() reads every key under the prefix, and the server
		// may
		// be shared.
		host = RedisLeaseHost.builder(server.lettuce())
			.keyPrefix("lease-schedule-" + UUID.randomUUID().toString().substring(0, 8) + ":")
			.build();
	}

	@AfterContainer
	static void stopHost() {
		host.close();
		server.close();
	}

	@Override
	protected LeaseHost host() {
		return host;
	}

}
