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

package dev.lease.autoconfigure.health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import dev.lease.LeaseHost;
import dev.lease.autoconfigure.LeaseHostTarget;
import dev.lease.host.redis.RedisDurability;
import dev.lease.host.redis.RedisLeaseHost;

/**
 * The health details of a {@link RedisLeaseHost}: the durability of its server, as the
 * host's latest check found it.
 *
 * @author Lease contributors
 */
final class RedisHealthDetails {

	private RedisHealthDetails() {
	}

	// Empty for any host but Redis. The host's class is compared by name, so that
	// RedisLeaseHost is loaded only when the host is one, and so Spring Data Redis is
	// present. Read at every health check, so the details follow the host's latest
	// check. The bean may be the observed host around it: its target is the Redis host.
	static Supplier<Map<String, Object>> of(LeaseHost host) {
		LeaseHost target = LeaseHostTarget.of(host);
		if (!target.getClass().getName().equals("dev.lease.host.redis.RedisLeaseHost")) {
			return Map::of;
		}
		RedisLeaseHost redis = (RedisLeaseHost) target;
		return () -> {
			RedisDurability durability = redis.durability();
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("status", durability.status().name());
			details.put("reason", durability.reason());
			return Map.of("durability", details);
		};
	}

}
