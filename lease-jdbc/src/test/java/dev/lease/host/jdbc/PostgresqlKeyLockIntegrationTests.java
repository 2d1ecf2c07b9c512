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
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The PostgreSQL host's key lock is its own: an application's advisory locks, in the
 * single-bigint space or on the same numbers, and another table prefix's key lock never
 * stall a question, and the host's own lock held by someone else fails a question within
 * its bound instead of answering it wrong or never (Invariant 1, Check 4.1, Operation 6).
 *
 * @author Lease contributors
 */
class PostgresqlKeyLockIntegrationTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	// Far past the host's bound on a wait for its key lock, far short of the time an
	// application holds a lock in these tests: an answer within it did not wait for
	// that lock.
	private static final Duration ANSWERED = Duration.ofSeconds(20);

	private static final String OTHER_PREFIX = "KEYLOCK_";

	private HikariDataSource pool;

	private HikariDataSource application;

	private JdbcLeaseHost host;

	private Connection applicationConnection;

	@BeforeEach
	void startHost() throws Exception {
		this.pool = JdbcTestServers.postgres();
		this.application = JdbcTestServers.pool(JdbcTestServers.postgresUrl(), "postgresql");
		// The second prefix's tables, made afresh from the shipped scripts.
		new JdbcTemplate(this.pool).execute("DROP TABLE IF EXISTS " + OTHER_PREFIX + "KEYS, " + OTHER_PREFIX
				+ "WAITERS, " + OTHER_PREFIX + "PROTOCOL");
		JdbcTestServers.withSchema(this.pool, "postgresql", OTHER_PREFIX);
		this.host = new JdbcLeaseHost(this.pool);
		this.applicationConnection = this.application.getConnection();
	}

	@AfterEach
	void stopHost() throws Exception {
		try (PreparedStatement unlock = this.applicationConnection
			.prepareStatement("SELECT PG_ADVISORY_UNLOCK_ALL()")) {
			unlock.execute();
		}
		this.applicationConnection.close();
		this.host.close();
		this.application.close();
		this.pool.close();
	}

	@Test
	@DisplayName("Check 4.1: an application holding an advisory lock on the key's 64-bit hash (the earlier key lock) stalls no question")
	void applicationLockOnTheEarlierHashStallsNothing() throws Exception {
		LeaseKey key = LeaseKey.of("keylock:" + UUID.randomUUID());
		applicationLocks("PG_ADVISORY_LOCK(HASHTEXTEXTENDED(ENCODE(?, 'hex'), 7811886091))", key.bytes());
		assertQuestionsAnswered(this.host, key);
	}

	@Test
	@DisplayName("Check 4.1: an application holding a lock on the host's two numbers in the single-bigint space stalls no question")
	void applicationLockOnTheSameNumbersAsOneBigintStallsNothing() throws Exception {
		LeaseKey key = LeaseKey.of("keylock:" + UUID.randomUUID());
		applicationLocks(
				"PG_ADVISORY_LOCK((CAST(? AS BIGINT) << 32) | (CAST(" + keyLockObject() + " AS BIGINT) & 4294967295))",
				JdbcLeaseStatements.keyLockClass(JdbcLeaseHost.DEFAULT_TABLE_PREFIX), key.bytes());
		assertQuestionsAnswered(this.host, key);
	}

	@Test
	@DisplayName("Invariant 1, Operation 6: two table prefixes on one database never wait for each other's key lock")
	void anotherTablePrefixsKeyLockStallsNothing() throws Exception {
		LeaseKey key = LeaseKey.of("keylock:" + UUID.randomUUID());
		applicationLocksKeyLockOf(JdbcLeaseHost.DEFAULT_TABLE_PREFIX, key);
		try (JdbcLeaseHost other = JdbcLeaseHost.builder(this.pool).tablePrefix(OTHER_PREFIX).build()) {
			assertQuestionsAnswered(other, key);
		}
	}

	@Test
	@DisplayName("Operation 6, Check 4.1: the host's key lock held by another session fails a try take within the host's bound, never answers Held")
	void keyLockHeldElsewhereFailsTryTakeWithinItsBound() throws Exception {
		LeaseKey key = LeaseKey.of("keylock:" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("holder:" + UUID.randomUUID());
		applicationLocksKeyLockOf(JdbcLeaseHost.DEFAULT_TABLE_PREFIX, key);
		CompletableFuture<Object> tryTake = CompletableFuture.supplyAsync(() -> {
			try {
				return this.host.tryTake(key, holder, TERM);
			}
			catch (LeaseHostException ex) {
				return ex;
			}
		});
		assertThat(tryTake.get(ANSWERED.toSeconds(), TimeUnit.SECONDS)).isInstanceOfSatisfying(LeaseHostException.class,
				(ex) -> assertThat(ex).hasMessageContaining("another session held the key's lock"));
	}

	@Test
	@DisplayName("Host: interruption, Check 4.1: a thread that holds the host's key lock and then takes the key gets an answer, not a deadlock")
	void threadHoldingTheKeyLockThenTakingGetsAnAnswer() throws Exception {
		LeaseKey key = LeaseKey.of("keylock:" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("holder:" + UUID.randomUUID());
		CompletableFuture<Object> take = CompletableFuture.supplyAsync(() -> {
			try {
				applicationLocksKeyLockOf(JdbcLeaseHost.DEFAULT_TABLE_PREFIX, key);
				return this.host.take(key, holder, TERM);
			}
			catch (LeaseHostException ex) {
				return ex;
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		assertThat(take.get(ANSWERED.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(LeaseHostException.class);
	}

	// A try take, a release, a take and a release again, each answered within ANSWERED
	// while the application keeps its lock.
	private static void assertQuestionsAnswered(JdbcLeaseHost host, LeaseKey key) throws Exception {
		LeaseHolder holder = LeaseHolder.of("holder:" + UUID.randomUUID());
		CompletableFuture<Void> questions = CompletableFuture.runAsync(() -> {
			try {
				assertThat(host.tryTake(key, holder, TERM)).isInstanceOf(Taken.class);
				assertThat(host.release(key, holder)).isInstanceOf(Released.class);
				assertThat(host.take(key, holder, TERM)).isInstanceOf(Taken.class);
				assertThat(host.release(key, holder)).isInstanceOf(Released.class);
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		try {
			questions.get(ANSWERED.toSeconds(), TimeUnit.SECONDS);
		}
		catch (ExecutionException ex) {
			throw new AssertionError(ex.getCause());
		}
	}

	private void applicationLocksKeyLockOf(String tablePrefix, LeaseKey key) throws Exception {
		applicationLocks("PG_ADVISORY_LOCK(?, " + keyLockObject() + ")", JdbcLeaseStatements.keyLockClass(tablePrefix),
				key.bytes());
	}

	// The host's key lock's second number, of the key given as the last parameter.
	private static String keyLockObject() {
		return "(SELECT " + JdbcLeaseStatements.KEY_LOCK_OBJECT + " FROM (SELECT CAST(? AS BYTEA) AS LEASE_KEY) P)";
	}

	// A session-level lock held by the application's own connection until the test ends.
	private void applicationLocks(String lock, Object... parameters) throws Exception {
		try (PreparedStatement statement = this.applicationConnection.prepareStatement("SELECT " + lock)) {
			for (int i = 0; i < parameters.length; i++) {
				statement.setObject(i + 1, parameters[i]);
			}
			statement.execute();
		}
	}

}
