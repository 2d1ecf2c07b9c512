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

package dev.lease.autoconfigure.redis;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import dev.lease.host.redis.RedisLeaseHost;

/**
 * The {@code lease.host.durability} gauge: 1 while the Redis host's latest check finds
 * the server durable, 0 while it finds it not durable, -1 while it cannot tell. Read at
 * every scrape, so it follows every recheck; alert on a value below 1.
 *
 * @author Lease contributors
 */
final class RedisDurabilityGauge {

	static final String NAME = "lease.host.durability";

	private RedisDurabilityGauge() {
	}

	static void register(RedisLeaseHost host, MeterRegistry registry) {
		Gauge.builder(NAME, host, RedisDurabilityGauge::value)
			.tag("lease.host", "redis")
			.description("Whether the lease host's server keeps every grant: 1 durable, 0 not durable, -1 unknown")
			.strongReference(true)
			.register(registry);
	}

	private static double value(RedisLeaseHost host) {
		return switch (host.durability().status()) {
			case DURABLE -> 1;
			case NOT_DURABLE -> 0;
			case UNKNOWN -> -1;
		};
	}

}
