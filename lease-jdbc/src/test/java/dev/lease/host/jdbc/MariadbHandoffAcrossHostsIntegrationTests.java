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

package dev.lease.host.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Handoffs by expiry on MariaDB (or MySQL) named by {@code LEASE_TEST_MARIADB_URL}, which
 * has no notifications: the head of a key's queue on one host learns from its host's
 * poller when the grant ahead of it changes hands on another host, and asks at that
 * grant's instant; skipped without it.
 *
 * @author Lease contributors
 */
@EnabledIfEnvironmentVariable(named = JdbcTestServers.MARIADB_VARIABLE, matches = ".+",
		disabledReason = "MariaDB tests skipped: set LEASE_TEST_MARIADB_URL (e.g. jdbc:mariadb://127.0.0.1:3306/test?user=root)")
class MariadbHandoffAcrossHostsIntegrationTests {

	// A key's poller in a host without notifications polls at most 100 ms apart; the
	// rest is margin for a loaded machine, whose scheduler may run a thread a second
	// late. Before the head learned of the new grant, it waited for the clean-up
	// thread, which runs here once a minute, or for its own bound, half a minute away.
	private static final Duration POLL_BOUND = Duration.ofMillis(100);

	private static final Duration MARGIN = Duration.ofMillis(2900);

	private static final Duration CLEANUP_INTERVAL = Duration.ofMinutes(1);

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	@AfterEach
	void stop() throws Exception {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

	@Test
	@DisplayName("Operation 2: the head of the queue on one host is granted within the poll bound when the grant ahead of it, handed on another host, passes")
	void headOnOneHostIsGrantedWhenGrantHandedOnAnotherPasses() throws Exception {
		JdbcLeaseHost hostY = host();
		JdbcLeaseHost hostX = host();
		JdbcTemplate jdbc = new JdbcTemplate(pool());
		LeaseKey key = LeaseKey.of("handoff:" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("H:" + UUID.randomUUID());
		LeaseHolder waiterY = LeaseHolder.of("WY:" + UUID.randomUUID());
		LeaseHolder waiterX = LeaseHolder.of("WX:" + UUID.randomUUID());
		Duration termX = Duration.ofSeconds(60);
		assertThat(hostY.tryTake(key, holder, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
		CompletableFuture<TakeResult> takeY = take(hostY, key, waiterY, Duration.ofSeconds(1));
		awaitQueued(jdbc, key, 1);
		CompletableFuture<TakeResult> takeX = take(hostX, key, waiterX, termX);
		awaitQueued(jdbc, key, 2);
		assertThat(hostY.release(key, holder)).isInstanceOf(Released.class);
		assertThat(takeY.get(10, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
		// WY lets its one-second grant pass; WX's grant is dated at WY's instant, so
		// whatever WX learns late comes off its term.
		TakeResult resultX = takeX.get(30, TimeUnit.SECONDS);
		Duration remaining = hostX.remaining(key, waiterX).orElseThrow();
		assertThat(resultX).isInstanceOf(Taken.class);
		Duration late = termX.minus(remaining);
		System.out.printf("WX granted %d ms after WY's instant (the term less the remaining term)%n", late.toMillis());
		assertThat(late).as("how long after WY's instant WX learned it was granted")
			.isLessThan(POLL_BOUND.plus(MARGIN));
		hostX.release(key, waiterX);
	}

	private CompletableFuture<TakeResult> take(JdbcLeaseHost host, LeaseKey key, LeaseHolder holder, Duration term) {
		return CompletableFuture.supplyAsync(() -> {
			try {
				return host.take(key, holder, term);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}, this.threads);
	}

	private static void awaitQueued(JdbcTemplate jdbc, LeaseKey key, int waiters) {
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> jdbc.queryForObject(
					"SELECT COUNT(*) FROM LEASE_WAITERS WHERE LEASE_KEY = ? AND GRANTED_EXPIRES_AT IS NULL",
					Integer.class, (Object) key.bytes()) == waiters);
	}

	// A host of its own on a pool of its own, as on another machine.
	private JdbcLeaseHost host() {
		JdbcLeaseHost host = JdbcLeaseHost.builder(pool()).cleanupInterval(CLEANUP_INTERVAL).build();
		this.closeables.add(0, host);
		return host;
	}

	private HikariDataSource pool() {
		HikariDataSource pool = JdbcTestServers.mariadb();
		this.closeables.add(0, pool);
		return pool;
	}

}
