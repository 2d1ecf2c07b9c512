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

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.event.connection.DisconnectedEvent;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import reactor.core.Disposable;

/**
 * Lettuce's disconnections and (re)connections, from its client's event bus. Lettuce
 * reconnects on its own and replays what was sent meanwhile, so a restarted server never
 * shows as a failed call; these events are how the host learns that it now talks to a
 * server it has not checked. Loaded only when Lettuce is on the class path.
 *
 * @author Lease contributors
 */
final class LettuceReconnections {

	private LettuceReconnections() {
	}

	static boolean handles(RedisConnectionFactory connectionFactory) {
		return connectionFactory instanceof LettuceConnectionFactory;
	}

	// Null when the factory has no client yet: the schedule and failed calls still
	// trigger checks.
	static @Nullable Runnable watch(RedisConnectionFactory connectionFactory, Runnable disturbed) {
		AbstractRedisClient client = ((LettuceConnectionFactory) connectionFactory).getNativeClient();
		if (client == null) {
			return null;
		}
		Disposable subscription = client.getResources()
			.eventBus()
			.get()
			.filter((event) -> event instanceof DisconnectedEvent || event instanceof ConnectionActivatedEvent)
			.subscribe((event) -> disturbed.run());
		return subscription::dispose;
	}

}
