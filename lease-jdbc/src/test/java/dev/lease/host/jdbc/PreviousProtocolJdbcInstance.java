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
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.GrantsPage;
import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.ReleaseResult;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;

/**
 * An instance of a release that spoke JDBC protocol 1, as small as its calls: it issues
 * that release's own one-statement try take and release, copied below from commit
 * 80199ca6561d6184fd6f230798d4f2e25438e870, the last before the PostgreSQL statements
 * took the key's two-integer lock ({@code JdbcLeaseStatements}:
 * {@code takeInOneStatement}, {@code releaseInOneStatement},
 * {@code mysqlTakeInOneStatement}, {@code mysqlReleaseInOneStatement}, {@code LOCKING},
 * {@code KEY_HASH} and the substitutions of {@code sql} and {@code mysql}; the clock
 * expressions of {@code DatabaseClock}; the parameters as {@code PostgresqlLeaseStore}
 * and {@code MysqlLeaseStore} bound them). That release went on to a transaction of its
 * general path only when the statement did not decide, which with nobody queued means
 * that the key stands granted (a try take: held) or is not the holder's (a release: not
 * held): so this instance answers those, and is meant for keys nobody waits for.
 *
 * @author Lease contributors
 */
final class PreviousProtocolJdbcInstance implements LeaseHost {

	private static final String POSTGRESQL_NOW = "CAST(EXTRACT(EPOCH FROM CLOCK_TIMESTAMP()) * 1000000 AS BIGINT)";

	private static final String MYSQL_NOW = "TIMESTAMPDIFF(MICROSECOND, TIMESTAMP('1970-01-01 00:00:00'), UTC_TIMESTAMP(6))";

	private static final String KEY_HASH = "HASHTEXTEXTENDED(ENCODE(LEASE_KEY, 'hex'), 7811886091)";

	private static final String LOCKING = "SELECT P.LEASE_KEY AS KEY, PG_ADVISORY_XACT_LOCK(" + KEY_HASH
			+ ") AS LOCKED FROM (SELECT CAST(? AS BYTEA) AS LEASE_KEY) P";

	private static final String TAKE_IN_ONE_STATEMENT = """
			INSERT INTO %PREFIX%KEYS AS K (LEASE_KEY, HOLDER, EXPIRES_AT, LATEST, QUEUED, ARRIVALS)
			SELECT C.KEY, ?, C.READING + ?, C.READING, 0, 0
			FROM (SELECT L.KEY, %NOW% AS READING FROM (%LOCKING%) L) C
			ON CONFLICT (LEASE_KEY) DO UPDATE SET HOLDER = EXCLUDED.HOLDER,
			EXPIRES_AT = GREATEST(K.LATEST, %NOW%) + ?, LATEST = GREATEST(K.LATEST, %NOW%), ARRIVALS = 0
			WHERE K.QUEUED = 0 AND (K.HOLDER IS NULL OR K.EXPIRES_AT <= GREATEST(K.LATEST, %NOW%))
			RETURNING K.EXPIRES_AT""";

	private static final String RELEASE_IN_ONE_STATEMENT = """
			DELETE FROM %PREFIX%KEYS WHERE LEASE_KEY = %KEY% AND HOLDER = ? AND QUEUED = 0
			AND EXPIRES_AT > GREATEST(LATEST, %NOW%)""";

	private static final String MYSQL_TAKE_IN_ONE_STATEMENT = """
			INSERT INTO %PREFIX%KEYS (LEASE_KEY, LATEST, QUEUED, ARRIVALS)
			VALUES (?, LAST_INSERT_ID(0), 0, 0), (?, 0, 0, 0)
			ON DUPLICATE KEY UPDATE EXPIRES_AT = IF(LAST_INSERT_ID() <> 0, EXPIRES_AT,
			IF(QUEUED = 0 AND (HOLDER IS NULL OR EXPIRES_AT <= GREATEST(LATEST, %READING%)) AND %READING_TRUSTED%,
			LAST_INSERT_ID(GREATEST(LATEST, %READING%) + ?), IF(LAST_INSERT_ID(1), EXPIRES_AT, EXPIRES_AT))),
			HOLDER = IF(LAST_INSERT_ID() > 1, ?, HOLDER),
			LATEST = IF(LAST_INSERT_ID() > 1, LAST_INSERT_ID() - ?, LATEST),
			ARRIVALS = IF(LAST_INSERT_ID() > 1, 0, ARRIVALS)""";

	private static final String MYSQL_RELEASE_IN_ONE_STATEMENT = """
			DELETE FROM %PREFIX%KEYS WHERE LEASE_KEY = ? AND HOLDER = ? AND QUEUED = 0
			AND EXPIRES_AT > GREATEST(LATEST, %READING%) AND %READING_TRUSTED%""";

	// The previous release's one insert of a waiter, as its take queued one behind a
	// standing grant (JdbcLeaseStatements.insertWaiter).
	private static final String INSERT_WAITER = """
			INSERT INTO %PREFIX%WAITERS (WAITER_ID, LEASE_KEY, HOLDER, DURATION_MICROS, BOUND, ARRIVAL)
			VALUES (?, ?, ?, ?, ?, ?)""";

	private static final int ATTEMPTS = 8;

	// MysqlLeaseStore.NOT_FREE: the one-statement take's answer when the key is not free
	private static final long NOT_FREE = 1;

	private final JdbcTemplate jdbc;

	private final boolean postgresql;

	private final String take;

	private final String release;

	private final String insertWaiter;

	PreviousProtocolJdbcInstance(DataSource dataSource, String platform, String tablePrefix) {
		this.jdbc = new JdbcTemplate(dataSource);
		this.postgresql = "postgresql".equals(platform);
		this.take = this.postgresql ? sql(TAKE_IN_ONE_STATEMENT, POSTGRESQL_NOW, tablePrefix)
				: mysql(MYSQL_TAKE_IN_ONE_STATEMENT, tablePrefix);
		this.release = this.postgresql ? sql(RELEASE_IN_ONE_STATEMENT, POSTGRESQL_NOW, tablePrefix)
				: mysql(MYSQL_RELEASE_IN_ONE_STATEMENT, tablePrefix);
		this.insertWaiter = INSERT_WAITER.replace("%PREFIX%", tablePrefix);
	}

	// What the previous release's take wrote to queue the holder behind the standing
	// grant, with the values its state model gave.
	void queueWaiter(long waiterId, LeaseKey key, LeaseHolder holder, Duration duration, Instant bound) {
		this.jdbc.update(this.insertWaiter, waiterId, key.bytes(), holder.bytes(), duration.toNanos() / 1000,
				bound.getEpochSecond() * 1_000_000 + bound.getNano() / 1000, 1);
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		long micros = duration.toNanos() / 1000;
		Long granted = retried(() -> this.postgresql ? postgresqlTake(key, holder, micros) : this.jdbc
			.execute((ConnectionCallback<Long>) (connection) -> mysqlTake(connection, key, holder, micros)));
		if (granted == null) {
			return new Held();
		}
		return new Taken(new Lease(key, holder, instant(granted)));
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		int rows = retried(() -> this.jdbc.update(this.release, key.bytes(), holder.bytes()));
		return (rows == 1) ? new Released() : new NotHeld();
	}

	// As that release's JdbcLeaseCalls: a deadlock or a lock wait is tried again, 8 times
	// in all.
	private static <T> T retried(Supplier<T> statement) {
		for (int attempt = 1;; attempt++) {
			try {
				return statement.get();
			}
			catch (PessimisticLockingFailureException ex) {
				if (attempt == ATTEMPTS) {
					throw new LeaseHostException("The previous release's statement failed " + ATTEMPTS + " times", ex);
				}
			}
		}
	}

	// PostgresqlLeaseStore.takeFreeKey: the grant's instant, or no row
	private @Nullable Long postgresqlTake(LeaseKey key, LeaseHolder holder, long micros) {
		List<Long> granted = this.jdbc.query(this.take, (rs, row) -> rs.getLong(1), holder.bytes(), micros, key.bytes(),
				micros);
		return granted.isEmpty() ? null : granted.get(0);
	}

	// MysqlLeaseStore.takeFreeKey: the answer sent with the update count, or kept by the
	// session when a trigger kept the server from sending it
	private @Nullable Long mysqlTake(Connection connection, LeaseKey key, LeaseHolder holder, long micros)
			throws SQLException {
		long answer = 0;
		try (PreparedStatement statement = connection.prepareStatement(this.take, Statement.RETURN_GENERATED_KEYS)) {
			statement.setBytes(1, key.bytes());
			statement.setBytes(2, key.bytes());
			statement.setLong(3, micros);
			statement.setBytes(4, holder.bytes());
			statement.setLong(5, micros);
			statement.executeUpdate();
			try (ResultSet keys = statement.getGeneratedKeys()) {
				answer = keys.next() ? keys.getLong(1) : 0;
			}
		}
		if (answer == 0) {
			try (Statement statement = connection.createStatement();
					ResultSet kept = statement.executeQuery("SELECT LAST_INSERT_ID()")) {
				answer = kept.next() ? kept.getLong(1) : 0;
			}
		}
		return (answer > NOT_FREE) ? answer : null;
	}

	private static String sql(String template, String now, String tablePrefix) {
		return template.replace("%KEY%", "(SELECT L.KEY FROM (" + LOCKING + ") L)")
			.replace("%LOCKING%", LOCKING)
			.replace("%KEY_HASH%", KEY_HASH)
			.replace("%PREFIX%", tablePrefix)
			.replace("%NOW%", now);
	}

	private static String mysql(String template, String tablePrefix) {
		String elapsed = "TIMESTAMPDIFF(MICROSECOND, NOW(6), SYSDATE(6))";
		return template.replace("%READING%", "(" + MYSQL_NOW + " + " + elapsed + ")")
			.replace("%READING_TRUSTED%", elapsed + " BETWEEN 0 AND 60000000")
			.replace("%KEY%", "?")
			.replace("%PREFIX%", tablePrefix)
			.replace("%NOW%", MYSQL_NOW);
	}

	private static Instant instant(long micros) {
		return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
	}

	@Override
	public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) {
		throw new UnsupportedOperationException("only the previous release's one-statement paths are copied");
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		throw new UnsupportedOperationException("only the previous release's one-statement paths are copied");
	}

	@Override
	public GrantsPage grants(@Nullable String cursor, int limit) {
		throw new UnsupportedOperationException("only the previous release's one-statement paths are copied");
	}

	@Override
	public Optional<Lease> grant(LeaseKey key) {
		throw new UnsupportedOperationException("only the previous release's one-statement paths are copied");
	}

	@Override
	public List<Lease> grants(int limit) {
		throw new UnsupportedOperationException("only the previous release's one-statement paths are copied");
	}

}
