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

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;

/**
 * {@code WAIT} through Lettuce, which needs to be told that the answer is an integer.
 * Loaded only when Lettuce is on the class path.
 *
 * @author Lease contributors
 */
final class LettuceReplicaWait {

	private LettuceReplicaWait() {
	}

	static boolean handles(RedisConnection connection) {
		return connection instanceof LettuceConnection;
	}

	static Object await(RedisConnection connection, byte[] replicas, byte[] timeout) {
		return ((LettuceConnection) connection).execute("WAIT", new IntegerOutput<>(ByteArrayCodec.INSTANCE), replicas,
				timeout);
	}

}
