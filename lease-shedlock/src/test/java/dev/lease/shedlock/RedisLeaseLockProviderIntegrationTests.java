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

import java.net.URI;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.LeaseHost;
import dev.lease.host.redis.RedisLeaseHost;

/**
 * Tests for {@link LeaseLockProvider} over a {@link RedisLeaseHost} on the server named
 * by {@code LEASE_TEST_REDIS_URL}: ShedLock's provider suite and the lease's own checks.
 * The embedded fallback of the host's tests lives in lease-tck's test sources, which this
 * module cannot reach, so without the variable these tests are skipped, saying so.
 *
 * @author Lease contributors
 */
class RedisLeaseLockProviderIntegrationTests extends LeaseLockProviderConformance {

	private static final String URL_VARIABLE = "LEASE_TEST_REDIS_URL";

	private static LettuceConnectionFactory connectionFactory;

	private static RedisLeaseHost host;

	@BeforeAll
	static void startHost() {
		String url = System.getenv(URL_VARIABLE);
		Assumptions.assumeTrue(url != null && !url.isBlank(),
				URL_VARIABLE + " is not set: no Redis server to run the ShedLock suite on");
		URI uri = URI.create(url.trim());
		connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(uri.getHost(), (uri.getPort() > 0) ? uri.getPort() : 6379));
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
		host = RedisLeaseHost.builder(connectionFactory).build();
	}

	@AfterAll
	static void stopHost() {
		if (host != null) {
			host.close();
		}
		if (connectionFactory != null) {
			connectionFactory.destroy();
		}
	}

	@Override
	protected LeaseHost host() {
		return host;
	}

}
