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
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.LongStream;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataRetrievalFailureException;
import org.springframework.jdbc.core.ArgumentPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.ResultSetExtractor;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.RowMapperResultSetExtractor;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.support.SqlArrayValue;

import dev.lease.host.Wakeups;

/**
 * One store call's view of its connection, run by {@link JdbcLeaseCalls} as one short
 * transaction or one auto-committed statement on a connection of the host's own: Spring
 * {@link JdbcTemplate} statements with typed rows, the database's clock
 * ({@link DatabaseClock#expression()}), and the grants the call handed to waiters.
 *
 * @author Lease contributors
 */
final class Transaction {

	// How a null parameter is sent: every nullable parameter is a holder's bytes, and a
	// typed null spares Spring asking the driver for the parameter's type.
	private static final SqlParameterValue NULL_BYTES = new SqlParameterValue(Types.VARBINARY, null);

	private static final ResultSetExtractor<Void> IGNORED = (resultSet) -> null;

	private final JdbcTemplate jdbc;

	private final String now;

	/** The grants the work handed to waiters, to wake this host's waiters with. */
	List<Wakeups.Handoff<Long>> handoffs = List.of();

	/** Rows of grants taken up from a notification, to remove with the work's writes. */
	List<Long> pickedUpRows = List.of();

	/**
	 * The waiter the work left at the head of the queue, and the standing grant's end.
	 */
	Wakeups.@Nullable NextInLine<Long> nextInLine;

	private long reading;

	private boolean hasReading;

	Transaction(JdbcTemplate jdbc, String nowQuery) {
		this.jdbc = jdbc;
		this.now = nowQuery;
	}

	// A reading taken after the key's row was locked, together with another question,
	// answers the next call to now() without a round trip of its own.
	void clockRead(long reading) {
		this.reading = reading;
		this.hasReading = true;
	}

	long now() {
		if (this.hasReading) {
			this.hasReading = false;
			return this.reading;
		}
		Long reading = this.jdbc.queryForObject(this.now, Long.class);
		if (reading == null) {
			throw new DataRetrievalFailureException("The database answered no reading of its clock");
		}
		return reading;
	}

	// The first row, or null when there is none.
	<R> @Nullable R queryRow(String sql, RowMapper<R> rows, @Nullable Object... parameters) {
		List<R> found = queryRows(sql, 1, rows, parameters);
		return found.isEmpty() ? null : found.get(0);
	}

	// At most maxRows rows, or all of them when maxRows is 0.
	<R> List<R> queryRows(String sql, int maxRows, RowMapper<R> rows, @Nullable Object... parameters) {
		List<R> found = this.jdbc.query((connection) -> {
			PreparedStatement statement = connection.prepareStatement(sql);
			if (maxRows > 0) {
				statement.setMaxRows(maxRows);
			}
			return statement;
		}, new ArgumentPreparedStatementSetter(bindable(parameters)), new RowMapperResultSetExtractor<>(rows));
		return (found != null) ? found : List.of();
	}

	// A query run for its effect (PG_NOTIFY), its rows unread.
	void select(String sql, @Nullable Object... parameters) {
		this.jdbc.query(sql, IGNORED, bindable(parameters));
	}

	int update(String sql, @Nullable Object... parameters) {
		return this.jdbc.update(sql, bindable(parameters));
	}

	// One statement run for each of the rows' parameters, sent together.
	void updateEach(String sql, List<@Nullable Object[]> rows) {
		if (rows.size() == 1) {
			update(sql, rows.get(0));
			return;
		}
		List<@Nullable Object[]> bindable = new ArrayList<>(rows.size());
		rows.forEach((parameters) -> bindable.add(bindable(parameters)));
		this.jdbc.batchUpdate(sql, bindable);
	}

	// A statement run for the value the database answers with its update count, as the
	// generated key of the statement (MySQL's LAST_INSERT_ID(expr)), or empty.
	OptionalLong updateAnsweringKey(String sql, @Nullable Object... parameters) {
		ArgumentPreparedStatementSetter setter = new ArgumentPreparedStatementSetter(bindable(parameters));
		OptionalLong key = this.jdbc.execute(
				(Connection connection) -> connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS),
				(PreparedStatement statement) -> {
					setter.setValues(statement);
					statement.executeUpdate();
					try (ResultSet keys = statement.getGeneratedKeys()) {
						return keys.next() ? OptionalLong.of(keys.getLong(1)) : OptionalLong.empty();
					}
				});
		return (key != null) ? key : OptionalLong.empty();
	}

	private static @Nullable Object[] bindable(@Nullable Object[] parameters) {
		@Nullable Object[] bindable = parameters;
		for (int i = 0; i < parameters.length; i++) {
			Object parameter = parameters[i];
			if (parameter == null || parameter instanceof long[]) {
				if (bindable == parameters) {
					bindable = parameters.clone();
				}
				bindable[i] = (parameter instanceof long[] values)
						? new SqlArrayValue("bigint", (Object[]) LongStream.of(values).boxed().toArray(Long[]::new))
						: NULL_BYTES;
			}
		}
		return bindable;
	}

	/**
	 * No connection could be had: nothing was sent.
	 */
	static final class NotConnected extends DataAccessResourceFailureException {

		NotConnected(Throwable cause) {
			super(cause.getMessage(), cause);
		}

	}

	/**
	 * The work of one store call. A {@link DataAccessException} it throws undoes the call
	 * whole.
	 *
	 * @param <T> the answer
	 */
	interface Work<T> {

		T run(Transaction tx);

	}

}
