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

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

import dev.lease.LeaseHostException;

/**
 * What differs between the supported databases: how to read the database's clock as
 * microseconds since the epoch, and how to insert a key's row unless it is there.
 *
 * @author Lease contributors
 */
enum JdbcLeaseDialect {

	/**
	 * PostgreSQL: {@code clock_timestamp()} is read at each call, unlike {@code now()},
	 * which is the transaction's start. Wakes waiters with {@code LISTEN/NOTIFY}.
	 */
	POSTGRESQL("PostgreSQL", "postgresql", "CAST(EXTRACT(EPOCH FROM CLOCK_TIMESTAMP()) * 1000000 AS BIGINT)", """
			INSERT INTO %PREFIX%KEYS (LEASE_KEY, LATEST, QUEUED, ARRIVALS) VALUES (?, 0, 0, 0)
			ON CONFLICT (LEASE_KEY) DO NOTHING"""),

	/**
	 * MySQL and MariaDB: {@code UTC_TIMESTAMP(6)} is read once per statement and is free
	 * of the session's time zone; it is only ever read in a statement of its own, after
	 * the key's row is locked.
	 */
	MYSQL("MySQL", "mysql", "TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6))", """
			INSERT IGNORE INTO %PREFIX%KEYS (LEASE_KEY, LATEST, QUEUED, ARRIVALS) VALUES (?, 0, 0, 0)"""),

	/**
	 * H2: {@code CURRENT_TIMESTAMP} is fixed at its first reading in a transaction, so it
	 * is read only after the key's row is locked.
	 */
	H2("H2", "h2", "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP(6)) * 1000000 AS BIGINT)", """
			MERGE INTO %PREFIX%KEYS K USING (VALUES (CAST(? AS VARBINARY(1024)))) S (LEASE_KEY)
			ON K.LEASE_KEY = S.LEASE_KEY WHEN NOT MATCHED THEN
			INSERT (LEASE_KEY, LATEST, QUEUED, ARRIVALS) VALUES (S.LEASE_KEY, 0, 0, 0)""");

	static final String SUPPORTED = "PostgreSQL, MySQL, MariaDB and H2";

	private final String displayName;

	private final String platform;

	private final String now;

	private final String insertKeyIfAbsent;

	JdbcLeaseDialect(String displayName, String platform, String now, String insertKeyIfAbsent) {
		this.displayName = displayName;
		this.platform = platform;
		this.now = now;
		this.insertKeyIfAbsent = insertKeyIfAbsent;
	}

	String displayName() {
		return this.displayName;
	}

	// Boot's @@platform@@ id of the schema scripts.
	String platform() {
		return this.platform;
	}

	// An SQL expression: the database's clock in microseconds since the epoch.
	String now() {
		return this.now;
	}

	// Parameter: the key. Inserts an empty row, to be locked, unless the key has one;
	// reads
	// no clock, since the insert may wait for a racing transaction.
	String insertKeyIfAbsent() {
		return this.insertKeyIfAbsent;
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
	boolean lostInsertRace(SQLException ex) {
		return this == H2 && ex.getSQLState() != null && ex.getSQLState().startsWith("23");
	}

	static JdbcLeaseDialect of(DatabaseMetaData metaData) throws SQLException {
		String product = metaData.getDatabaseProductName();
		String name = (product != null) ? product.toLowerCase(Locale.ROOT) : "";
		if (name.contains("postgresql")) {
			return POSTGRESQL;
		}
		if (name.contains("mysql") || name.contains("mariadb")) {
			return MYSQL;
		}
		if (name.equals("h2")) {
			return H2;
		}
		throw new LeaseHostException("Database '" + product + "' is not supported by the JDBC lease host; supported: "
				+ SUPPORTED + ". Use another lease host, or one of these databases");
	}

}
