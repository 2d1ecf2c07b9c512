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

import java.io.File;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.AsyncLeaseHost;
import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.tck.LeaseHostProbes;
import dev.lease.test.support.RedisTestCluster;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisLeaseHost#async()} through Lettuce on a Redis Cluster whose slot
 * is between two masters (the lease's key moved, its waiters' structures not yet), where
 * Redis answers {@code TRYAGAIN} to every script call on the key: the asynchronous calls
 * are asked again until the migration completes, as the blocking ones are.
 *
 * @author Lease contributors
 */
class RedisClusterAsyncReshardIntegrationTests {

	private static final String PREFIX = "async-reshard:";

	private static final long WITHIN_SECONDS = 30;

	@Test
	@DisplayName("Non-goal 3, Operations 1-4: while the key's slot is between two masters, asynchronous try take, remaining, take and release are asked again, and answer once the migration completes")
	void asyncCallsAreAskedAgainWhileTheSlotMoves() throws Exception {
		File binary = RedisTestCluster.binaries().get(0);
		try (RedisTestCluster cluster = new RedisTestCluster(binary);
				RedisLeaseHost host = RedisLeaseHost.builder(cluster.lettuce()).keyPrefix(PREFIX).build()) {
			AsyncLeaseHost async = host.async();
			LeaseKey key = LeaseKey.of("async-reshard-" + UUID.randomUUID());
			String redisKey = PREFIX + "{" + Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes()) + "}";
			int slot = cluster.slotOf(redisKey);
			int from = cluster.ownerOf(slot);
			int to = cluster.ports().stream().filter((port) -> port != from).findFirst().orElseThrow();
			LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
			LeaseHolder other = LeaseHolder.of("other-" + UUID.randomUUID());
			LeaseHolder waiter = LeaseHolder.of("waiter-" + UUID.randomUUID());
			// A waiter first, so that the key has waiters' structures to leave behind.
			assertThat(async.tryTake(key, holder, Duration.ofSeconds(20)).get(WITHIN_SECONDS, TimeUnit.SECONDS))
				.isInstanceOf(Taken.class);
			CompletableFuture<TakeResult> take = async.take(key, waiter, Duration.ofSeconds(20));
			LeaseHostProbes.awaitQueued(host, key, waiter, Duration.ofSeconds(WITHIN_SECONDS));
			assertThat(take).isNotDone();

			cluster.startMigration(slot, from, to);
			cluster.migrate(from, to, redisKey);
			// Every call on the key is refused with TRYAGAIN from here.
			CompletableFuture<TryTakeResult> tryTake = async.tryTake(key, other, Duration.ofSeconds(20));
			CompletableFuture<Optional<Duration>> remaining = async.remaining(key, holder);
			LeaseHolder late = LeaseHolder.of("late-" + UUID.randomUUID());
			CompletableFuture<TakeResult> lateTake = async.take(key, late, Duration.ofSeconds(20));
			Thread.sleep(500);
			assertThat(tryTake).as("a try take while the slot moves").isNotDone();
			assertThat(remaining).as("remaining while the slot moves").isNotDone();
			assertThat(lateTake).as("a take while the slot moves").isNotDone();
			cluster.migrate(from, to, redisKey + ":q", redisKey + ":w");
			cluster.migrate(from, to, redisKey + ":h");
			cluster.finishMigration(slot, from, to);

			assertThat(tryTake.get(WITHIN_SECONDS, TimeUnit.SECONDS)).isInstanceOf(Held.class);
			assertThat(remaining.get(WITHIN_SECONDS, TimeUnit.SECONDS)).isPresent();
			assertThat(lateTake).isNotDone();
			assertThat(async.release(key, holder).get(WITHIN_SECONDS, TimeUnit.SECONDS)).isInstanceOf(Released.class);
			assertThat(take.get(WITHIN_SECONDS, TimeUnit.SECONDS)).as("the first waiter, handed the key")
				.isInstanceOf(Taken.class);
			assertThat(async.release(key, waiter).get(WITHIN_SECONDS, TimeUnit.SECONDS)).isInstanceOf(Released.class);
			assertThat(lateTake.get(WITHIN_SECONDS, TimeUnit.SECONDS)).as("the take made while the slot moved")
				.isInstanceOf(Taken.class);
			assertThat(async.release(key, late).get(WITHIN_SECONDS, TimeUnit.SECONDS)).isInstanceOf(Released.class);
			assertThat(cluster.keysInSlot(from, slot)).as("keys left on the source").isZero();
		}
	}

}
