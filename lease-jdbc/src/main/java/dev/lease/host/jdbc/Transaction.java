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
import java.sql.SQLTransactionRollbackException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import dev.lease.host.Wakeups;

/**
 * One short transaction on a connection of the host's own, never the caller's: committed
 * when the work returns, rolled back when it throws, so that a failed question leaves no
 * half-written state. Or, for the one-statement questions, a single statement in
 * auto-commit.
 *
 * @author Lease contributors
 */
final class Transaction {

	private static final Object[] NO_ROW = null;

	private @Nullable Connection connection;

	private final String now;

	/** The grants the work handed to waiters, to wake this host's waiters with. */
	List<Wakeups.Handoff<Long>> handoffs = List.of();

	private final boolean readCommitted;

	private long reading;

	private boolean hasReading;

	Transaction(String nowQuery, boolean readCommitted) {
		this.now = nowQuery;
		this.readCommitted = readCommitted;
	}

	static <T> T run(DataSource dataSource, Transaction tx, boolean autoCommit, Work<T> work) throws SQLException {
		try (Connection connection = connect(dataSource)) {
			boolean wasAutoCommit = connection.getAutoCommit();
			tx.connection = connection;
			if (autoCommit) {
				if (!wasAutoCommit) {
					connection.setAutoCommit(true);
				}
				try {
					return work.run(tx);
				}
				finally {
					restore(connection, wasAutoCommit, true);
				}
			}
			// InnoDB's default REPEATABLE READ takes gap locks that make racing inserts
			// of
			// one key deadlock; READ COMMITTED does not, and is all the host needs.
			int isolation = tx.readCommitted ? connection.getTransactionIsolation() : Connection.TRANSACTION_NONE;
			boolean setIsolation = tx.readCommitted && isolation != Connection.TRANSACTION_READ_COMMITTED;
			if (setIsolation) {
				connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
			}
			if (wasAutoCommit) {
				connection.setAutoCommit(false);
			}
			try {
				T result = work.run(tx);
				connection.commit();
				return result;
			}
			catch (SQLException | RuntimeException | Error ex) {
				rollbackQuietly(connection, ex);
				throw ex;
			}
			finally {
				restore(connection, wasAutoCommit, false);
				if (setIsolation) {
					try {
						connection.setTransactionIsolation(isolation);
					}
					catch (SQLException ex) {
						// the pool resets the connection, or discards it
					}
				}
			}
		}
	}

	private static Connection connect(DataSource dataSource) throws SQLException {
		try {
			return dataSource.getConnection();
		}
		catch (SQLException ex) {
			throw new NotConnected(ex);
		}
	}

	// Deadlocks, serialization failures and lock timeouts: the transaction was undone
	// whole and may be run again. A connection that cannot be had is not retried here:
	// the
	// pool has already waited for it.
	static boolean isTransient(SQLException ex) {
		String state = ex.getSQLState();
		return ex instanceof SQLTransactionRollbackException || "40001".equals(state) || "40P01".equals(state)
				|| "HYT00".equals(state) || ex.getErrorCode() == 1205 || ex.getErrorCode() == 1213;
	}

	// A reading taken after the key's row was locked, together with another question,
	// answers the next call to now() without a round trip of its own.
	void clockRead(long reading) {
		this.reading = reading;
		this.hasReading = true;
	}

	long now() throws SQLException {
		if (this.hasReading) {
			this.hasReading = false;
			return this.reading;
		}
		Object[] row = queryRow(this.now);
		if (row == null || row[0] == null) {
			throw new SQLException("The database answered no reading of its clock");
		}
		return ((Number) row[0]).longValue();
	}

	Object @Nullable [] queryRow(String sql, Object... parameters) throws SQLException {
		List<Object[]> rows = queryRows(sql, 1, parameters);
		return rows.isEmpty() ? NO_ROW : rows.get(0);
	}

	List<Object[]> queryRows(String sql, int maxRows, Object... parameters) throws SQLException {
		try (PreparedStatement statement = connection().prepareStatement(sql)) {
			bind(statement, parameters);
			if (maxRows > 0) {
				statement.setMaxRows(maxRows);
			}
			try (ResultSet resultSet = statement.executeQuery()) {
				int columns = resultSet.getMetaData().getColumnCount();
				List<Object[]> rows = new ArrayList<>();
				while (resultSet.next()) {
					Object[] row = new Object[columns];
					for (int i = 0; i < columns; i++) {
						row[i] = resultSet.getObject(i + 1);
					}
					rows.add(row);
				}
				return rows;
			}
		}
	}

	int update(String sql, @Nullable Object... parameters) throws SQLException {
		try (PreparedStatement statement = connection().prepareStatement(sql)) {
			bind(statement, parameters);
			return statement.executeUpdate();
		}
	}

	private Connection connection() {
		Connection connection = this.connection;
		if (connection == null) {
			throw new IllegalStateException("No connection");
		}
		return connection;
	}

	private static void bind(PreparedStatement statement, @Nullable Object... parameters) throws SQLException {
		for (int i = 0; i < parameters.length; i++) {
			Object parameter = parameters[i];
			if (parameter == null) {
				statement.setNull(i + 1, Types.VARBINARY);
			}
			else if (parameter instanceof byte[] bytes) {
				statement.setBytes(i + 1, bytes);
			}
			else if (parameter instanceof Long value) {
				statement.setLong(i + 1, value);
			}
			else if (parameter instanceof Integer value) {
				statement.setInt(i + 1, value);
			}
			else if (parameter instanceof Boolean value) {
				statement.setBoolean(i + 1, value);
			}
			else if (parameter instanceof long[] values) {
				Long[] boxed = new Long[values.length];
				for (int v = 0; v < values.length; v++) {
					boxed[v] = values[v];
				}
				statement.setArray(i + 1, statement.getConnection().createArrayOf("bigint", boxed));
			}
			else {
				statement.setString(i + 1, parameter.toString());
			}
		}
	}

	private static void rollbackQuietly(Connection connection, Throwable failure) {
		try {
			connection.rollback();
		}
		catch (SQLException ex) {
			failure.addSuppressed(ex);
		}
	}

	private static void restore(Connection connection, boolean wasAutoCommit, boolean autoCommit) {
		if (wasAutoCommit != autoCommit) {
			try {
				connection.setAutoCommit(wasAutoCommit);
			}
			catch (SQLException ex) {
				// the pool resets the connection, or discards it
			}
		}
	}

	/**
	 * No connection could be had: nothing was sent.
	 */
	static final class NotConnected extends SQLException {

		NotConnected(SQLException cause) {
			super(cause.getMessage(), cause.getSQLState(), cause.getErrorCode(), cause);
		}

	}

	/**
	 * The work of one transaction.
	 *
	 * @param <T> the answer
	 */
	interface Work<T> {

		T run(Transaction tx) throws SQLException;

	}

}
