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

import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHostException;
import dev.lease.host.Wakeups;

/**
 * When a {@link RedisLeaseHost} has started: loaded its script, read the server's
 * durability and subscribed for handoffs, once. Redis down at build time leaves it
 * unstarted, and the next call starts it; a closed host never starts again.
 *
 * @author Lease contributors
 */
final class RedisHostStart {

	private final RedisConnectionFactory connectionFactory;

	private final RedisLeaseStore store;

	private final RedisDurabilityMonitor durability;

	private final Wakeups<String, String> wakeups;

	private final ReentrantLock starting = new ReentrantLock();

	private volatile @Nullable Started started;

	private volatile boolean closed;

	RedisHostStart(RedisConnectionFactory connectionFactory, RedisLeaseStore store, RedisDurabilityMonitor durability,
			Wakeups<String, String> wakeups) {
		this.connectionFactory = connectionFactory;
		this.store = store;
		this.durability = durability;
		this.wakeups = wakeups;
	}

	// Load the script, read the durability and subscribe, once; a failure leaves the host
	// unstarted, to be tried again at the next call.
	Started start() {
		Started current = this.started;
		if (current != null) {
			return current;
		}
		this.starting.lock();
		try {
			current = this.started;
			if (current != null) {
				return current;
			}
			if (this.closed) {
				throw new LeaseHostException("The Redis lease host is closed");
			}
			this.store.start();
			RedisHandoffSubscription subscription;
			try {
				subscription = new RedisHandoffSubscription(this.connectionFactory, this.store.handoffChannels(),
						this.wakeups, this.durability::disturbed, this.durability.threads());
			}
			catch (RuntimeException ex) {
				throw (ex instanceof LeaseHostException) ? ex
						: new LeaseHostException("Could not subscribe to Redis for handoffs", ex);
			}
			this.store.subscribed(subscription);
			current = new Started(subscription,
					new RedisLeaseWaiting(this.store, this.wakeups, this.durability.threads().executor()));
			this.started = current;
			return current;
		}
		finally {
			this.starting.unlock();
		}
	}

	boolean isStarted() {
		return this.started != null;
	}

	// Never starts again; what runs before the subscription ends runs under the start's
	// lock, so no start overtakes it.
	void close(Runnable first) {
		this.starting.lock();
		try {
			this.closed = true;
			first.run();
			Started current = this.started;
			if (current != null) {
				current.subscription().close();
			}
		}
		finally {
			this.starting.unlock();
		}
	}

	record Started(RedisHandoffSubscription subscription, RedisLeaseWaiting waiting) {

	}

}
