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

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;
import reactor.core.publisher.Flux;

import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.annotation.Fenced;
import dev.lease.annotation.Leased;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.fence.FenceAutoConfiguration;
import dev.lease.fence.redis.FencedRedisWrites;
import dev.lease.host.redis.RedisLeaseHost;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A leased {@code Publisher} on the Redis host whose operators write to Redis through a
 * {@code @Fenced} party: every element is made and written under the grant.
 *
 * @author Lease contributors
 */
class RedisLeasedPipelineIntegrationTests {

	private static RedisTestServer server;

	@BeforeAll
	static void startServer() {
		server = RedisTestServer.start();
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	@DisplayName("Invariant 1, Fence 5: a leased Publisher on Redis writes every element through its @Fenced party while the grant stands")
	void leasedPublisherWritesEveryElementThroughItsFencedParty() {
		String prefix = "it-" + UUID.randomUUID() + ":";
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					RedisLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class, FenceAutoConfiguration.class))
			.withPropertyValues(server.properties())
			.withPropertyValues("lease.redis.key-prefix=" + prefix, "lease.fences.ledger.allowance=500ms")
			.withBean(Ledger.class)
			.withBean(Settlements.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(RedisLeaseHost.class);
				Settlements settlements = context.getBean(Settlements.class);
				String order = prefix + "order";
				List<String> written = Flux.from(settlements.settle(order)).collectList().block(Duration.ofSeconds(30));
				StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
				assertThat(written).containsExactly(order + ":1", order + ":2", order + ":3");
				assertThat(written).allSatisfy((key) -> assertThat(redis.opsForValue().get(key)).isEqualTo("settled"));
				assertThat(settlements.standing()).containsExactly(true, true, true);
				assertThat(context.getBean(LeaseHost.class).grant(LeaseKey.of(order))).isEmpty();
				redis.delete(written);
			});
	}

	static class Ledger {

		private final FencedRedisWrites writes;

		Ledger(StringRedisTemplate redis) {
			this.writes = new FencedRedisWrites(redis, "ledger");
		}

		@Fenced("ledger")
		String write(String key) {
			this.writes.set(key, "settled");
			return key;
		}

	}

	static class Settlements {

		private final Ledger ledger;

		private final LeaseHost host;

		private final List<Boolean> standing = new CopyOnWriteArrayList<>();

		Settlements(Ledger ledger, LeaseHost host) {
			this.ledger = ledger;
			this.host = host;
		}

		@Leased(key = "#order", duration = "30s")
		Publisher<String> settle(String order) {
			return Flux.range(1, 3).map((line) -> {
				this.standing.add(this.host.grant(LeaseKey.of(order)).isPresent());
				return this.ledger.write(order + ":" + line);
			});
		}

		List<Boolean> standing() {
			return this.standing;
		}

	}

}
