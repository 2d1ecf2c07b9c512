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

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Lettuce factory that does not share its native connection: the non-blocking view's
 * withdrawal of a cancelled take relies on the order of one shared connection, so the
 * host falls back to the threaded view, and says why.
 *
 * @author Lease contributors
 */
class LettuceUnsharedConnectionIntegrationTests {

	private RedisTestServer server;

	private LettuceConnectionFactory unshared;

	@BeforeEach
	void start() {
		this.server = RedisTestServer.start();
		this.unshared = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.server.host(), this.server.port()));
		this.unshared.setShareNativeConnection(false);
		this.unshared.afterPropertiesSet();
		this.unshared.start();
	}

	@AfterEach
	void stop() {
		this.unshared.destroy();
		this.server.close();
	}

	@Test
	@DisplayName("Operation 2: without a shared native connection the non-blocking view waits on threads, and a cancelled waiter is withdrawn")
	void unsharedConnectionFallsBackToTheThreadedView() throws Exception {
		String prefix = "lease-unshared-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		try (RedisLeaseHost host = RedisLeaseHost.builder(this.unshared).keyPrefix(prefix).build()) {
			assertThat(host.async()).isNotInstanceOf(LettuceAsyncLeaseHost.class);
			LeaseKey key = LeaseKey.of("unshared");
			LeaseHolder holder = LeaseHolder.of("holder");
			assertThat(host.tryTake(key, holder, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
			CompletableFuture<TakeResult> cancelled = host.async()
				.take(key, LeaseHolder.of("cancelled"), Duration.ofSeconds(30));
			CompletableFuture<TakeResult> next = host.async().take(key, LeaseHolder.of("next"), Duration.ofSeconds(30));
			cancelled.cancel(true);
			host.release(key, holder);
			assertThat(next.get(30, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
		}
	}

}
