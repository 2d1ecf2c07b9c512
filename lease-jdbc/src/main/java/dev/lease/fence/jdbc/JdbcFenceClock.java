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

package dev.lease.fence.jdbc;

import java.sql.DatabaseMetaData;
import java.time.Instant;
import java.util.Locale;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

/**
 * Reads a database's own clock at the moment the statement runs, never the transaction's
 * start: PostgreSQL {@code clock_timestamp()}, MySQL and MariaDB {@code UTC_TIMESTAMP(6)}
 * (the check statement's own start), H2 the current statement's start from
 * {@code INFORMATION_SCHEMA.SESSIONS} (H2's {@code CURRENT_TIMESTAMP} stands still for
 * the whole transaction).
 *
 * @author Lease contributors
 */
enum JdbcFenceClock {

	POSTGRESQL("SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)"),

	MYSQL("SELECT TIMESTAMPDIFF(MICROSECOND, TIMESTAMP('1970-01-01 00:00:00'), UTC_TIMESTAMP(6))"),

	H2("""
			SELECT CAST(EXTRACT(EPOCH FROM EXECUTING_STATEMENT_START) * 1000000 AS BIGINT)
			FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID = SESSION_ID()""");

	private final String sql;

	JdbcFenceClock(String sql) {
		this.sql = sql;
	}

	Instant read(JdbcOperations jdbc) {
		Long micros = jdbc.queryForObject(this.sql, Long.class);
		if (micros == null) {
			throw new IllegalStateException("The database answered no clock reading to: " + this.sql);
		}
		return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
	}

	static JdbcFenceClock of(DataSource dataSource) {
		String product;
		try {
			product = JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName);
		}
		catch (MetaDataAccessException ex) {
			throw new IllegalStateException("Could not read the database product name to choose its clock", ex);
		}
		return of(product);
	}

	static JdbcFenceClock of(String product) {
		String name = product.toLowerCase(Locale.ROOT);
		if (name.contains("postgres")) {
			return POSTGRESQL;
		}
		if (name.contains("mariadb") || name.contains("mysql")) {
			return MYSQL;
		}
		if (name.equals("h2")) {
			return H2;
		}
		throw new IllegalStateException("FencedJdbcTemplate cannot read the clock of database '" + product
				+ "'; supported: PostgreSQL, MariaDB, MySQL, H2");
	}

}
