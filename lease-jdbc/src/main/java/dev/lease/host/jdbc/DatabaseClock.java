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
import java.time.Instant;
import java.util.Locale;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataRetrievalFailureException;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

import dev.lease.host.Micros;

/**
 * The one reading of a database's own clock, in microseconds since the epoch, shared by
 * the JDBC lease host and {@code FencedJdbcTemplate} so that a grant and a fence are
 * judged by the same clock: PostgreSQL {@code clock_timestamp()}, read at each call;
 * MySQL and MariaDB {@code UTC_TIMESTAMP(6)}, read once per statement and free of the
 * session's time zone; H2 the start of the statement that reads it.
 * <p>
 * H2 offers that instant two ways. {@code CURRENT_TIMESTAMP} is the start of the first
 * statement in the transaction that reads it, and then stands still: right for the host,
 * which reads the clock once in a transaction of its own after locking the key's row
 * ({@link #expression()}), but not for a fence check run last in the application's
 * transaction, which may have read it before. {@link #read} therefore asks H2 for the
 * current statement's start in {@code INFORMATION_SCHEMA.SESSIONS}, which H2 builds from
 * every session for an administrator, and which can fail while other sessions commit: the
 * host, with many sessions at once, does not read it there.
 * <p>
 * Part of the JDBC artifact's internals shared between its packages; not for
 * applications.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public enum DatabaseClock {

	/**
	 * PostgreSQL: {@code clock_timestamp()} is read at each call, unlike {@code now()},
	 * the transaction's start.
	 */
	POSTGRESQL("PostgreSQL", "CAST(EXTRACT(EPOCH FROM CLOCK_TIMESTAMP()) * 1000000 AS BIGINT)", null),

	/**
	 * MySQL and MariaDB: {@code UTC_TIMESTAMP(6)} is read once per statement.
	 */
	MYSQL("MySQL", "TIMESTAMPDIFF(MICROSECOND, TIMESTAMP('1970-01-01 00:00:00'), UTC_TIMESTAMP(6))", null),

	/**
	 * H2: the start of the statement that reads it.
	 */
	H2("H2", "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP(6)) * 1000000 AS BIGINT)", """
			SELECT CAST(EXTRACT(EPOCH FROM EXECUTING_STATEMENT_START) * 1000000 AS BIGINT)
			FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID = SESSION_ID()""");

	static final String SUPPORTED = "PostgreSQL, MySQL, MariaDB and H2";

	private final String productName;

	private final String expression;

	private final String query;

	DatabaseClock(String productName, String expression, @Nullable String statementStartQuery) {
		this.productName = productName;
		this.expression = expression;
		this.query = (statementStartQuery != null) ? statementStartQuery : "SELECT " + expression;
	}

	/**
	 * Return an SQL expression whose value is the clock in microseconds since the epoch,
	 * for a statement of a transaction that reads the clock once, after its locks: on H2
	 * it stands still at its first reading in a transaction.
	 * @return the expression
	 */
	public String expression() {
		return this.expression;
	}

	// The product name under which Spring's SQL error codes know the database.
	String productName() {
		return this.productName;
	}

	/**
	 * Read the clock at the moment the statement runs, whatever the transaction read
	 * before, in microseconds since the epoch.
	 * @param jdbc the operations to read it with
	 * @return the reading
	 * @throws DataRetrievalFailureException if the database answered no reading
	 */
	public long readMicros(JdbcOperations jdbc) {
		Long micros = jdbc.queryForObject(this.query, Long.class);
		if (micros == null) {
			throw new DataRetrievalFailureException("The database answered no reading of its clock to: " + this.query);
		}
		return micros;
	}

	/**
	 * Read the clock at the moment the statement runs, as an instant.
	 * @param jdbc the operations to read it with
	 * @return the reading
	 */
	public Instant read(JdbcOperations jdbc) {
		return Micros.toInstant(readMicros(jdbc));
	}

	/**
	 * Return the clock of the database behind the given data source, from its metadata.
	 * @param dataSource the database
	 * @return its clock
	 * @throws IllegalStateException if the database is not supported or does not answer
	 */
	public static DatabaseClock of(DataSource dataSource) {
		try {
			return of(JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName));
		}
		catch (MetaDataAccessException ex) {
			throw new IllegalStateException("Could not read the database product name to choose its clock", ex);
		}
	}

	/**
	 * Return the clock of the database of the given product name, as its JDBC metadata
	 * answers it.
	 * @param productName the database product name
	 * @return its clock
	 * @throws IllegalStateException if the database is not supported
	 */
	public static DatabaseClock of(@Nullable String productName) {
		String name = (productName != null) ? productName.toLowerCase(Locale.ROOT) : "";
		if (name.contains("postgresql")) {
			return POSTGRESQL;
		}
		if (name.contains("mysql") || name.contains("mariadb")) {
			return MYSQL;
		}
		if (name.equals("h2")) {
			return H2;
		}
		throw new IllegalStateException(
				"The clock of database '" + productName + "' cannot be read; supported: " + SUPPORTED);
	}

}
