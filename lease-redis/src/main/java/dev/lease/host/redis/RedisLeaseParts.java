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

import dev.lease.LeaseHostException;
import dev.lease.host.LazyStart;
import dev.lease.host.Wakeups;

/**
 * The parts of a {@link RedisLeaseHost} built once Redis has answered: its script loaded,
 * the server's durability read, and its subscription for handoffs. Built through the host
 * kit's {@link LazyStart}, so that a host built while Redis is down starts at the first
 * call that reaches it.
 *
 * @param subscription the subscription for handoffs, ended with the host
 * @param waiting the host's waiting takes
 * @author Lease contributors
 */
record RedisLeaseParts(RedisHandoffSubscription subscription, RedisLeaseWaiting waiting) implements AutoCloseable {

	static LazyStart<RedisLeaseParts> lazy(RedisLeaseStore store, RedisDurabilityMonitor durability,
			Wakeups<String, String> wakeups) {
		return new LazyStart<>(() -> start(store, durability, wakeups), "The Redis lease host is closed");
	}

	private static RedisLeaseParts start(RedisLeaseStore store, RedisDurabilityMonitor durability,
			Wakeups<String, String> wakeups) {
		store.start();
		RedisHandoffSubscription subscription;
		try {
			subscription = new RedisHandoffSubscription(store.connectionFactory(), store.handoffChannels(), wakeups,
					durability::disturbed, durability.threads());
		}
		catch (RuntimeException ex) {
			throw (ex instanceof LeaseHostException) ? ex
					: new LeaseHostException("Could not subscribe to Redis for handoffs", ex);
		}
		return new RedisLeaseParts(subscription,
				new RedisLeaseWaiting(store, subscription, wakeups, durability.threads().executor()));
	}

	@Override
	public void close() {
		this.subscription.close();
	}

}
