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

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link JdbcLeaseHost} on PostgreSQL (the server named by
 * {@code LEASE_TEST_POSTGRES_URL}, else an embedded one), beyond the conformance kit:
 * waiters are woken by {@code LISTEN/NOTIFY} over one connection per host.
 *
 * @author Lease contributors
 */
class PostgresqlJdbcLeaseHostIntegrationTests extends JdbcLeaseHostChecks {

	private static final Duration LONG = Duration.ofSeconds(60);

	@Override
	String url() {
		return JdbcTestServers.postgresUrl();
	}

	@Override
	String platform() {
		return "postgresql";
	}

	@Test
	@DisplayName("Host: waking: a host listens on one connection however many of its callers wait")
	void hostListensOnOneConnectionForAllItsWaiters() throws Exception {
		String application = "lease-listen-" + UUID.randomUUID().toString().substring(0, 8);
		JdbcLeaseHost waiting = host(pool(application));
		LeaseHolder holder = newHolder("holder");
		List<LeaseKey> keys = new ArrayList<>();
		List<CompletableFuture<TakeResult>> takes = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			LeaseKey key = newKey();
			keys.add(key);
			this.host.tryTake(key, holder, LONG);
			LeaseHolder waiter = newHolder("waiter-" + i);
			takes.add(CompletableFuture.supplyAsync(() -> take(waiting, key, waiter, LONG)));
		}
		for (LeaseKey key : keys) {
			awaitQueued(key, 1);
		}
		// The listening connection's last statement is its LISTEN, or, once it has heard
		// nothing for a second (a loaded machine queues the four slowly), the query that
		// asks whether it lives.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(
					() -> assertThat(
							this.jdbc.queryForObject(
									"SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = ?"
											+ " AND (query LIKE 'LISTEN %' OR query = 'SELECT 1')",
									Integer.class, application))
						.isOne());
		for (LeaseKey key : keys) {
			this.host.release(key, holder);
		}
		for (CompletableFuture<TakeResult> take : takes) {
			assertThat(take.get(10, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
		}
	}

	@Test
	@DisplayName("Host: waking: a NOTIFY wakes a waiter on another instance long before its own timer would")
	void notificationWakesWaiterOnAnotherInstance() throws Exception {
		JdbcLeaseHost other = host(pool());
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		LeaseHolder waiter = newHolder("waiter");
		this.host.tryTake(key, holder, LONG);
		CompletableFuture<TakeResult> waiting = CompletableFuture.supplyAsync(() -> take(other, key, waiter, LONG));
		awaitQueued(key, 1);
		this.host.release(key, holder);
		// Without the notification the waiter would sleep half its 60 s term.
		assertThat(waiting.get(5, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
	}

	@Test
	@DisplayName("Host: waking: without notifications a waiter on another instance learns of a release by polling")
	void waiterOnAnotherInstancePollsWithoutNotifications() throws Exception {
		JdbcLeaseHost other = JdbcLeaseHost.builder(pool()).notifications(false).build();
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		LeaseHolder waiter = newHolder("waiter");
		this.host.tryTake(key, holder, LONG);
		CompletableFuture<TakeResult> waiting = CompletableFuture.supplyAsync(() -> take(other, key, waiter, LONG));
		awaitQueued(key, 1);
		this.host.release(key, holder);
		assertThat(waiting.get(5, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
	}

	@Test
	@DisplayName("Operation 2, Operation 7, Operation 11: on PostgreSQL a take or try take of a free key, with or without a row, and a release with nobody queued are one statement each")
	void freeKeyTakesAndReleasesRunOneStatementEach() throws Exception {
		StatementCounter counter = new StatementCounter(pool());
		JdbcLeaseHost counted = track(JdbcLeaseHost.builder(counter.dataSource())
			.notifications(false)
			.cleanupInterval(Duration.ofHours(1))
			.build());
		LeaseKey key = newKey();
		LeaseHolder first = newHolder("first");
		LeaseHolder second = newHolder("second");
		long before = counter.statements();
		assertThat(counted.tryTake(key, first, Duration.ofMillis(200))).isInstanceOf(Taken.class);
		long withoutRow = counter.statements() - before;
		// The grant passes, and the key's row is left with a passed grant.
		Thread.sleep(400);
		before = counter.statements();
		assertThat(counted.tryTake(key, second, LONG)).isInstanceOf(Taken.class);
		long passedRow = counter.statements() - before;
		before = counter.statements();
		assertThat(counted.release(key, second)).isInstanceOf(Released.class);
		long release = counter.statements() - before;
		before = counter.statements();
		assertThat(take(counted, key, first, LONG)).isInstanceOf(Taken.class);
		long take = counter.statements() - before;
		before = counter.statements();
		assertThat(take(counted, newKey(), first, LONG)).isInstanceOf(Taken.class);
		long takeWithoutRow = counter.statements() - before;
		assertThat(new long[] { withoutRow, passedRow, release, take, takeWithoutRow })
			.as("statements of: try take without a row, try take of a passed row, release, take of a released key, "
					+ "take without a row")
			.containsExactly(1, 1, 1, 1, 1);
	}

	@Test
	@DisplayName("Invariant 1.2: on PostgreSQL a one-statement take that waits for another transaction on the key is dated after that transaction, with or without a row")
	void takeThatWaitsForTheKeyIsDatedAfterIt() throws Exception {
		String insert = "INSERT INTO LEASE_KEYS (LEASE_KEY, LATEST, QUEUED, ARRIVALS) VALUES (?, 0, 0, 0)";
		// How every statement that removes a key's row, or may insert one, locks the key
		// first: a removal under it leaves a take that waited to the insert path.
		String keyLock = "SELECT PG_ADVISORY_XACT_LOCK("
				+ JdbcLeaseStatements.keyLockClass(JdbcLeaseHost.DEFAULT_TABLE_PREFIX) + ", "
				+ JdbcLeaseStatements.KEY_LOCK_OBJECT + ") FROM (SELECT CAST(? AS BYTEA) AS LEASE_KEY) P";
		for (String racer : List.of("locks the row", "inserts the row", "removes the row under the key's lock")) {
			LeaseKey key = newKey();
			if (!racer.startsWith("inserts")) {
				this.jdbc.update(insert, (Object) key.bytes());
			}
			try (Connection blocker = this.dataSource.getConnection()) {
				blocker.setAutoCommit(false);
				switch (racer) {
					case "locks the row" ->
						run(blocker, "SELECT LEASE_KEY FROM LEASE_KEYS WHERE LEASE_KEY = ? FOR UPDATE", key.bytes());
					case "inserts the row" -> run(blocker, insert, key.bytes());
					default -> {
						run(blocker, keyLock, key.bytes());
						run(blocker, "DELETE FROM LEASE_KEYS WHERE LEASE_KEY = ?", key.bytes());
					}
				}
				int blockerPid = backendPid(blocker);
				CompletableFuture<TryTakeResult> taking = CompletableFuture
					.supplyAsync(() -> this.host.tryTake(key, newHolder("taker"), LONG));
				// the take's statement waits for the blocker's transaction
				await().atMost(Duration.ofSeconds(30))
					.until(() -> this.jdbc.queryForObject(
							"SELECT COUNT(*) FROM PG_STAT_ACTIVITY WHERE ? = ANY(PG_BLOCKING_PIDS(PID))", Integer.class,
							blockerPid) > 0);
				assertThat(taking).as("a take while another transaction %s", racer).isNotDone();
				long reading;
				try (PreparedStatement clock = blocker
					.prepareStatement("SELECT CAST(EXTRACT(EPOCH FROM CLOCK_TIMESTAMP()) * 1000000 AS BIGINT)");
						ResultSet resultSet = clock.executeQuery()) {
					resultSet.next();
					reading = resultSet.getLong(1);
				}
				blocker.commit();
				TryTakeResult result = taking.get(10, TimeUnit.SECONDS);
				assertThat(result).as("a take after another transaction %s", racer).isInstanceOf(Taken.class);
				Instant dated = ((Taken) result).expiresAt().minus(LONG);
				assertThat(dated).as("the grant's dating after another transaction %s", racer)
					.isAfterOrEqualTo(Instant.EPOCH.plus(reading, ChronoUnit.MICROS));
			}
		}
	}

	private static int backendPid(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT PG_BACKEND_PID()");
				ResultSet resultSet = statement.executeQuery()) {
			resultSet.next();
			return resultSet.getInt(1);
		}
	}

	private static void run(Connection connection, String sql, byte[] key) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setBytes(1, key);
			statement.execute();
		}
	}

}
