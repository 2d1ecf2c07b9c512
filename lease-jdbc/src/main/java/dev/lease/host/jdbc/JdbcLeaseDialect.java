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
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

import javax.sql.DataSource;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.LeaseHostException;

/**
 * What differs between the supported databases: their clock ({@link DatabaseClock}), and
 * how to insert a key's row unless it is there.
 *
 * @author Lease contributors
 */
enum JdbcLeaseDialect {

	/**
	 * PostgreSQL. Wakes waiters with {@code LISTEN/NOTIFY}.
	 */
	POSTGRESQL(DatabaseClock.POSTGRESQL, """
			INSERT INTO %PREFIX%KEYS (LEASE_KEY, LATEST, QUEUED, ARRIVALS) VALUES (?, 0, 0, 0)
			ON CONFLICT (LEASE_KEY) DO NOTHING"""),

	/**
	 * MySQL and MariaDB: the clock is only ever read in a statement of its own, after the
	 * key's row is locked.
	 */
	MYSQL(DatabaseClock.MYSQL, """
			INSERT IGNORE INTO %PREFIX%KEYS (LEASE_KEY, LATEST, QUEUED, ARRIVALS) VALUES (?, 0, 0, 0)"""),

	/**
	 * H2: {@code CURRENT_TIMESTAMP} is fixed at its first reading in a transaction, so it
	 * is read only after the key's row is locked.
	 */
	H2(DatabaseClock.H2, """
			MERGE INTO %PREFIX%KEYS K USING (VALUES (CAST(? AS VARBINARY(1024)))) S (LEASE_KEY)
			ON K.LEASE_KEY = S.LEASE_KEY WHEN NOT MATCHED THEN
			INSERT (LEASE_KEY, LATEST, QUEUED, ARRIVALS) VALUES (S.LEASE_KEY, 0, 0, 0)""");

	private final DatabaseClock clock;

	private final String insertKeyIfAbsent;

	JdbcLeaseDialect(DatabaseClock clock, String insertKeyIfAbsent) {
		this.clock = clock;
		this.insertKeyIfAbsent = insertKeyIfAbsent;
	}

	// The product's name, as Spring's SQL error codes know it.
	String displayName() {
		return this.clock.productName();
	}

	// Boot's @@platform@@ id of the schema scripts: the dialect's name in lower case.
	String platform() {
		return name().toLowerCase(Locale.ROOT);
	}

	// The database's clock, the same reading as the fence's.
	DatabaseClock clock() {
		return this.clock;
	}

	// Parameter: the key. Inserts an empty row, to be locked, unless the key has one;
	// reads no clock, since the insert may wait for a racing transaction.
	String insertKeyIfAbsent() {
		return this.insertKeyIfAbsent;
	}

	// A reading of the clock at the statement's start, no later than any reading of
	// the clock in the statement: on PostgreSQL CLOCK_TIMESTAMP() is read at each call.
	String statementStart() {
		return (this == POSTGRESQL) ? "CAST(EXTRACT(EPOCH FROM STATEMENT_TIMESTAMP()) * 1000000 AS BIGINT)"
				: this.clock.expression();
	}

	// Whether waiters can be woken by LISTEN/NOTIFY.
	boolean notifies() {
		return this == POSTGRESQL;
	}

	// Whether the store takes, releases, loads and saves in one statement where it can
	// (PostgresqlLeaseStore).
	boolean hasOneStatementPaths() {
		return this == POSTGRESQL;
	}

	// InnoDB's default REPEATABLE READ takes gap locks that make racing inserts of one
	// key deadlock; READ COMMITTED does not, and is all the host needs.
	boolean needsReadCommitted() {
		return this == MYSQL;
	}

	// Whether an insert of the key's row failed only because a racing transaction
	// inserted it first: H2's MERGE can meet such a row, and then the statement alone is
	// undone, and the row can be locked and read instead.
	boolean lostInsertRace(DataAccessException ex) {
		return this == H2 && ex instanceof DataIntegrityViolationException;
	}

	// The database of a template, to choose its dialect from.
	static DataSource dataSourceOf(JdbcTemplate jdbcTemplate) {
		if (jdbcTemplate == null || jdbcTemplate.getDataSource() == null) {
			throw new IllegalArgumentException("'jdbcTemplate' must not be null and must have a DataSource");
		}
		return jdbcTemplate.getDataSource();
	}

	// The dialect, and the database's name for reports: its metadata's URL, read once
	// here, since the database cannot be asked once it is down.
	static Detected detect(DataSource dataSource) {
		try (Connection connection = dataSource.getConnection()) {
			DatabaseMetaData metaData = connection.getMetaData();
			JdbcLeaseDialect dialect = of(metaData);
			return new Detected(dialect, UnreachableDatabase.name(dialect, metaData.getURL(), dataSource));
		}
		catch (SQLException ex) {
			LeaseHostException unreachable = UnreachableDatabase.of(UnreachableDatabase.name(dataSource),
					"choose the host's dialect", ex, true);
			throw (unreachable != null) ? unreachable : new LeaseHostException(
					"The JDBC lease host could not reach its database to choose its dialect: " + ex.getMessage(), ex);
		}
	}

	static JdbcLeaseDialect of(DatabaseMetaData metaData) throws SQLException {
		String product = metaData.getDatabaseProductName();
		DatabaseClock clock;
		try {
			clock = DatabaseClock.of(product);
		}
		catch (IllegalStateException ex) {
			throw new LeaseHostException("Database '" + product + "' is not supported by the JDBC lease host;"
					+ " supported: " + DatabaseClock.SUPPORTED + ". Use another lease host, or one of these databases");
		}
		// Each dialect is named as the clock it reads.
		return valueOf(clock.name());
	}

	/**
	 * A database's dialect, and how a report names the database.
	 *
	 * @param dialect the dialect
	 * @param database the product and its URL, without credentials
	 */
	record Detected(JdbcLeaseDialect dialect, String database) {

	}

}
