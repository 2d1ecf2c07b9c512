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

import dev.lease.LeaseHostException;

/**
 * Thrown when a host that must have each grant acknowledged by replicas is built on a
 * server that cannot confirm them: a Redis Cluster through Jedis, whose {@code WAIT} may
 * not go out on the connection that wrote the grant, or a server that refuses a command
 * the confirmation sends ({@code WAIT} or {@code CLIENT INFO}, renamed away or denied by
 * an ACL, as managed services do). The start writes nothing before it finds out.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class RedisReplicasToAckUnsupportedException extends LeaseHostException {

	private static final long serialVersionUID = 1L;

	RedisReplicasToAckUnsupportedException(String message, @Nullable Throwable cause) {
		super(message);
		if (cause != null) {
			initCause(cause);
		}
	}

}
