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

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHostException;

/**
 * The connection a host's replicas-to-ack acknowledgements go out on through Lettuce: one
 * of the host's own, opened at the first acknowledgement and kept until the host closes.
 * {@code WAIT} blocks its client and every command queued behind it, so on the native
 * connection Lettuce's factory shares every other call of the application would wait
 * behind it, or time out there and run after its caller was told it failed. Spring lends
 * a pipeline a connection of its own; only the native commands are sent on it, so the
 * pipeline collects nothing. Acknowledgements wait behind each other here, which costs a
 * round trip to a replica while the replicas keep up, and makes a take fail and give its
 * grant back when they do not. Lettuce reconnects it as it does the shared one, through
 * Sentinel to the current primary.
 *
 * @author Lease contributors
 */
final class AcknowledgementConnection implements AutoCloseable {

	private final RedisConnectionFactory connectionFactory;

	private @Nullable RedisConnection connection;

	private boolean closed;

	AcknowledgementConnection(RedisConnectionFactory connectionFactory) {
		this.connectionFactory = connectionFactory;
	}

	// The connection, opened if it is not yet; its native commands are safe to send from
	// any thread, and it is published under this object's lock.
	synchronized RedisConnection get() {
		if (this.closed) {
			throw new LeaseHostException("The Redis lease host is closed");
		}
		RedisConnection current = this.connection;
		if (current == null || current.isClosed()) {
			current = this.connectionFactory.getConnection();
			current.openPipeline();
			this.connection = current;
		}
		return current;
	}

	@Override
	public synchronized void close() {
		this.closed = true;
		RedisConnection current = this.connection;
		this.connection = null;
		if (current != null) {
			try {
				current.closePipeline();
			}
			finally {
				current.close();
			}
		}
	}

}
