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

package dev.lease.fence.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.lease.Allowance;
import dev.lease.Fence;
import dev.lease.FenceExpiredException;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.fence.BoundFence;
import dev.lease.fence.FenceBinding;
import dev.lease.fence.FenceRefusal;
import dev.lease.fence.FenceRefusalListener;
import dev.lease.fence.FencedStoreScenarios;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link FencedRedisWrites}: the server named by {@code LEASE_TEST_REDIS_URL},
 * else an embedded one.
 *
 * @author Lease contributors
 */
class FencedRedisWritesIntegrationTests extends FencedStoreScenarios {

	private static RedisTestServer redis;

	private static StringRedisTemplate template;

	private final String prefix = "fence-test:" + UUID.randomUUID() + ":";

	@BeforeAll
	static void startRedis() {
		redis = RedisTestServer.start();
		template = new StringRedisTemplate(redis.lettuce());
		template.afterPropertiesSet();
	}

	@AfterAll
	static void stopRedis() {
		redis.close();
	}

	@Override
	protected void write(String id, String value) {
		writes().set(this.prefix + id, value, Duration.ofMinutes(5));
	}

	@Override
	protected @Nullable String read(String id) {
		return template.opsForValue().get(this.prefix + id);
	}

	@Test
	@DisplayName("Fence 3, 4: hash set, delete and a user script are admitted before the fence on Redis' clock")
	void everyWriteIsAdmittedBeforeTheFence() {
		String hash = this.prefix + "hash";
		String value = this.prefix + "value";
		template.opsForValue().set(value, "x");
		Object scripted = withFence(Instant.now().plusSeconds(60), () -> {
			assertThat(writes().hashSet(hash, "field", "one")).isTrue();
			assertThat(writes().delete(value)).isEqualTo(1);
			return writes().script("return redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])", List.of(hash), "other",
					"two");
		});
		assertThat(scripted).isEqualTo(1L);
		assertThat(template.<String, String>opsForHash().entries(hash))
			.containsExactlyInAnyOrderEntriesOf(Map.of("field", "one", "other", "two"));
		assertThat(template.hasKey(value)).isFalse();
		template.delete(hash);
	}

	@Test
	@DisplayName("Fence 3, 4: hash set, delete and a user script write nothing once the fence passed on Redis' clock")
	void everyWriteIsRefusedAfterTheFence() {
		String hash = this.prefix + "hash";
		String value = this.prefix + "value";
		template.opsForValue().set(value, "x");
		withFence(Instant.now().minusSeconds(5), () -> {
			assertThatExceptionOfType(FenceExpiredException.class)
				.isThrownBy(() -> writes().hashSet(hash, "field", "one"));
			assertThatExceptionOfType(FenceExpiredException.class).isThrownBy(() -> writes().delete(value));
			assertThatExceptionOfType(FenceExpiredException.class)
				.isThrownBy(() -> writes().script("return redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])", List.of(hash),
						"other", "two"))
				.satisfies((ex) -> assertThat(ex.getReading()).isAfter(ex.getFence()));
			return null;
		});
		assertThat(template.hasKey(hash)).isFalse();
		assertThat(template.opsForValue().get(value)).isEqualTo("x");
		template.delete(value);
	}

	@Test
	@DisplayName("Fence 3: a refusal is reported once: to the bound fence's listener, or to the writes' own instead")
	void refusalIsReportedOnceToOneListener() {
		List<FenceRefusal> application = new CopyOnWriteArrayList<>();
		List<FenceRefusal> own = new CopyOnWriteArrayList<>();
		String key = "fence-" + UUID.randomUUID();
		withFence(Instant.now().minusSeconds(5), application::add, () -> {
			assertThatExceptionOfType(FenceExpiredException.class).isThrownBy(() -> writes().set(key, "late"));
			return null;
		});
		assertThat(application).singleElement().satisfies((refusal) -> assertThat(refusal.party()).isEqualTo(PARTY));
		withFence(Instant.now().minusSeconds(5), application::add, () -> {
			assertThatExceptionOfType(FenceExpiredException.class)
				.isThrownBy(() -> new FencedRedisWrites(template, PARTY, own::add).set(key, "late"));
			return null;
		});
		assertThat(own).hasSize(1);
		assertThat(application).hasSize(1);
		assertThat(template.hasKey(key)).isFalse();
	}

	private static @Nullable Object withFence(Instant expiresAt, java.util.function.Supplier<@Nullable Object> work) {
		return withFence(expiresAt, FenceRefusalListener.NONE, work);
	}

	private static @Nullable Object withFence(Instant expiresAt, FenceRefusalListener listener,
			java.util.function.Supplier<@Nullable Object> work) {
		Lease lease = new Lease(LeaseKey.of("fence-" + UUID.randomUUID()), LeaseHolder.of("holder"), expiresAt);
		Fence fence = Fence.mint(lease, Allowance.of(Duration.ofMillis(100)));
		try (FenceBinding.Scope scope = FenceBinding.bind(new BoundFence(PARTY, lease.key(), fence, listener))) {
			return work.get();
		}
	}

	private static FencedRedisWrites writes() {
		return new FencedRedisWrites(template, PARTY);
	}

}
