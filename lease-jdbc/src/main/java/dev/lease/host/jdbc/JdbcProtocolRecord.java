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

import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.LeaseHostException;
import dev.lease.host.StoreProtocol;
import dev.lease.host.StoreProtocolReading;

/**
 * The protocol a JDBC host's instances speak on one table prefix, recorded in the one row
 * of {@code <prefix>PROTOCOL} (created by the schema script, or by the migration script
 * {@code V3__lease_protocol.sql} on tables of an earlier release). Each start reads it,
 * inserts its own protocol where there is no row, and raises a row that names an older
 * protocol this one works beside, in one conditional update; a protocol it cannot work
 * beside fails the start. Without the table the host logs a warning and records nothing,
 * as earlier releases did.
 *
 * @author Lease contributors
 */
final class JdbcProtocolRecord {

	/**
	 * The protocol of this release: the tables of schema version 3 and the statements
	 * that, on PostgreSQL, take the key's two-integer advisory lock first. Version 1,
	 * earlier releases, recorded nothing and is not worked beside: its statements do not
	 * take that lock.
	 */
	static final StoreProtocol PROTOCOL = new StoreProtocol(2, 2);

	private static final Log logger = LogFactory.getLog(JdbcLeaseHost.class);

	private static final int RECORD_ID = 1;

	private final String table;

	JdbcProtocolRecord(String tablePrefix) {
		this.table = tablePrefix + "PROTOCOL";
	}

	// At start: read the record, insert or raise it where ours is newer and works beside
	// it, and refuse a protocol this one cannot work beside.
	StoreProtocolReading meet(DataSource dataSource) {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		StoreProtocol recorded;
		try {
			recorded = recorded(jdbc);
			if (recorded == null) {
				try {
					jdbc.update(
							"INSERT INTO " + this.table
									+ " (RECORD_ID, PROTOCOL_VERSION, WORKS_BESIDE_SINCE) VALUES (?, ?, ?)",
							RECORD_ID, PROTOCOL.version(), PROTOCOL.worksBesideSince());
				}
				catch (DuplicateKeyException ex) {
					// another host inserted first: judge what it wrote
					recorded = recorded(jdbc);
				}
			}
			if (recorded != null && PROTOCOL.raises(recorded)) {
				jdbc.update(
						"UPDATE " + this.table + " SET PROTOCOL_VERSION = ?, WORKS_BESIDE_SINCE = ?"
								+ " WHERE RECORD_ID = ? AND PROTOCOL_VERSION < ? AND PROTOCOL_VERSION >= ?",
						PROTOCOL.version(), PROTOCOL.worksBesideSince(), RECORD_ID, PROTOCOL.version(),
						PROTOCOL.worksBesideSince());
			}
		}
		catch (BadSqlGrammarException ex) {
			logger.warn("The JDBC lease host could not record its protocol " + PROTOCOL + " in " + this.table
					+ ", which is missing: run dev/lease/host/jdbc/migration/<platform>/V3__lease_protocol.sql (with"
					+ " the table prefix) so that instances of releases that cannot work together refuse to start"
					+ " beside each other (" + ex.getMostSpecificCause().getMessage() + ")");
			return reading(null);
		}
		catch (DataAccessException ex) {
			// as a failure to choose the dialect is reported: the host is built, and its
			// calls fail until the database answers
			Throwable cause = ex.getMostSpecificCause();
			throw new LeaseHostException("The JDBC lease host could not read its protocol record in " + this.table
					+ ": " + cause.getMessage(), (cause instanceof SQLException) ? cause : ex);
		}
		return reading(recorded).atStart(logger::error,
				() -> logger.info("The JDBC lease host recorded protocol " + PROTOCOL + " in " + this.table
						+ "; instances of releases before 0.1.0 record none, and cannot work beside this one"),
				(other) -> logger.warn("The JDBC lease host is working beside instances of protocol " + other + " on "
						+ this.table + " (this instance speaks " + PROTOCOL + "), as in a rolling deploy"));
	}

	// Health: the record as it stands, writing nothing; none without the table.
	StoreProtocolReading read(DataSource dataSource) {
		try {
			return reading(recorded(new JdbcTemplate(dataSource)));
		}
		catch (BadSqlGrammarException ex) {
			return reading(null);
		}
	}

	private @Nullable StoreProtocol recorded(JdbcTemplate jdbc) {
		return jdbc.query("SELECT PROTOCOL_VERSION, WORKS_BESIDE_SINCE FROM " + this.table + " WHERE RECORD_ID = ?",
				(ResultSet rs) -> rs.next() ? StoreProtocol.recorded(rs.getInt(1), rs.getInt(2)) : null, RECORD_ID);
	}

	private StoreProtocolReading reading(@Nullable StoreProtocol recorded) {
		return new StoreProtocolReading("table " + this.table,
				"delete its row (DELETE FROM " + this.table + ") so that the next start records its own protocol",
				PROTOCOL, recorded);
	}

}
