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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import redis.clients.jedis.Jedis;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link RedisLeaseHost} on a Redis Cluster whose slot moves while a key is
 * held and waited for: the standard reshard steps (SETSLOT IMPORTING and MIGRATING,
 * MIGRATE in batches with the lease's key before its waiters' structures, SETSLOT NODE),
 * a release and a later take made while the slot is between two masters.
 *
 * @author Lease contributors
 */
class RedisClusterReshardIntegrationTests {

	private static final String PREFIX = "reshard:";

	static List<Arguments> servers() {
		List<Arguments> servers = new ArrayList<>();
		for (File binary : RedisTestCluster.binaries()) {
			servers.add(Arguments.of(binary, "Lettuce"));
			servers.add(Arguments.of(binary, "Jedis"));
		}
		return servers;
	}

	@ParameterizedTest(name = "{1} on {0}")
	@MethodSource("servers")
	@DisplayName("Non-goal 3, Operation 4: through a reshard of the key's slot, waiters are granted in arrival order, none is unavailable before its bound, and the migration completes")
	void reshardKeepsArrivalOrder(File binary, String client) throws Exception {
		try (RedisTestCluster cluster = new RedisTestCluster(binary)) {
			reshardKeepsArrivalOrder(cluster,
					"Lettuce".equals(client) ? RedisTestCluster::lettuce : RedisTestCluster::jedis);
		}
	}

	private void reshardKeepsArrivalOrder(RedisTestCluster cluster,
			Function<RedisTestCluster, RedisConnectionFactory> client) throws Exception {
		try (RedisLeaseHost host = RedisLeaseHost.builder(client.apply(cluster)).keyPrefix(PREFIX).build()) {
			LeaseKey key = LeaseKey.of("reshard-" + UUID.randomUUID());
			String redisKey = PREFIX + "{" + Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes()) + "}";
			int slot = cluster.slotOf(redisKey);
			int from = cluster.ownerOf(slot);
			int to = cluster.ports().stream().filter((port) -> port != from).findFirst().orElseThrow();
			LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
			assertThat(host.tryTake(key, holder, Duration.ofSeconds(15))).isInstanceOf(Taken.class);

			List<String> taken = new CopyOnWriteArrayList<>();
			List<String> others = new CopyOnWriteArrayList<>();
			List<String> granted = new CopyOnWriteArrayList<>();
			CountDownLatch migrated = new CountDownLatch(1);
			List<Thread> threads = new ArrayList<>();
			for (String waiter : List.of("first", "second")) {
				threads.add(waiter(host, key, waiter, taken, granted, others, migrated));
				await().atMost(Duration.ofSeconds(10)).until(() -> queued(from, redisKey) == threads.size());
			}

			List<String> migrationErrors = new ArrayList<>();
			cluster.startMigration(slot, from, to);
			migrate(cluster, from, to, migrationErrors, redisKey);
			// The slot is between two masters: the lease's key moved, its queue did not.
			threads.add(waiter(host, key, "third", taken, granted, others, migrated));
			long releaseStart = System.nanoTime();
			Thread release = start("release", () -> {
				if (!(host.release(key, holder) instanceof Released)) {
					others.add("release: not held");
				}
				granted.add("release answered " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - releaseStart)
						+ " ms after it began");
			});
			Thread.sleep(500);
			migrate(cluster, from, to, migrationErrors, redisKey + ":q", redisKey + ":w");
			migrate(cluster, from, to, migrationErrors, redisKey + ":h");
			try {
				cluster.finishMigration(slot, from, to);
			}
			catch (RuntimeException ex) {
				migrationErrors.add("SETSLOT NODE: " + ex.getMessage());
			}
			migrated.countDown();
			release.join(TimeUnit.SECONDS.toMillis(30));
			for (Thread thread : threads) {
				thread.join(TimeUnit.SECONDS.toMillis(30));
			}
			System.out.println("Reshard on Redis " + cluster.version() + ": " + granted);
			SoftAssertions.assertSoftly((softly) -> {
				softly.assertThat(taken)
					.as("waiters in the order they were granted")
					.containsExactly("first", "second", "third");
				softly.assertThat(others).as("answers other than Taken").isEmpty();
				softly.assertThat(migrationErrors).as("migration errors").isEmpty();
				softly.assertThat(cluster.keysInSlot(from, slot)).as("keys left on the source").isZero();
			});
		}
	}

	// A waiter that takes the key, and on being granted holds it until the migration is
	// over, then releases it.
	private static Thread waiter(RedisLeaseHost host, LeaseKey key, String name, List<String> taken,
			List<String> granted, List<String> others, CountDownLatch migrated) {
		return start("waiter-" + name, () -> {
			LeaseHolder holder = LeaseHolder.of(name + "-" + UUID.randomUUID());
			long start = System.nanoTime();
			try {
				TakeResult result = host.take(key, holder, Duration.ofSeconds(10));
				if (!(result instanceof Taken)) {
					others.add(name + ": " + result + " after "
							+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
					return;
				}
				taken.add(name);
				granted.add(name + " granted " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
						+ " ms after its take began");
				migrated.await(30, TimeUnit.SECONDS);
				host.release(key, holder);
			}
			catch (Exception ex) {
				others.add(name + ": " + ex);
			}
		});
	}

	private static Thread start(String name, Runnable action) {
		Thread thread = new Thread(action, name);
		thread.start();
		return thread;
	}

	private static void migrate(RedisTestCluster cluster, int from, int to, List<String> errors, String... keys) {
		try {
			cluster.migrate(from, to, keys);
		}
		catch (RuntimeException ex) {
			errors.add("MIGRATE " + String.join(" ", keys) + ": " + ex.getMessage());
		}
	}

	private static long queued(int port, String redisKey) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			return jedis.zcard((redisKey + ":q").getBytes(StandardCharsets.US_ASCII));
		}
	}

}
