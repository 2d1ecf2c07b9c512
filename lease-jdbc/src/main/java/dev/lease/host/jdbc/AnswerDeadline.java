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
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.support.JdbcUtils;

import dev.lease.host.TimedBorrow;

/**
 * The instant by which a waiter's store calls must answer (Host: silence): its bound plus
 * two thirds of the answer margin. A call made under one waits for a pool connection no
 * longer than that (a Hikari pool, the one Spring Boot configures, is asked for one
 * within that time; any other pool, or one wrapped, lends through a {@link TimedBorrow}),
 * and for the database's answers no longer than that (the connection's network timeout),
 * so a database that is down or silent fails the call by then, rather than after the
 * pool's connection timeout or never.
 *
 * @author Lease contributors
 */
final class AnswerDeadline {

	private final ThreadLocal<Long> answerBy = new ThreadLocal<>();

	private final TimedBorrow lender;

	AnswerDeadline(Executor lenders) {
		this.lender = new TimedBorrow(lenders);
	}

	/**
	 * Run store calls that must answer by the given instant.
	 * @param <T> the answer
	 * @param answerByNanos a {@link System#nanoTime()} reading
	 * @param calls the calls
	 * @return their answer
	 */
	<T> T answeringBy(long answerByNanos, Supplier<T> calls) {
		Long outer = this.answerBy.get();
		this.answerBy.set((outer != null) ? Math.min(outer, answerByNanos) : answerByNanos);
		try {
			return calls.get();
		}
		finally {
			if (outer != null) {
				this.answerBy.set(outer);
			}
			else {
				this.answerBy.remove();
			}
		}
	}

	// The instant the running call must answer by, or null when it has none.
	@Nullable Long current() {
		return this.answerBy.get();
	}

	// A connection had by the instant: a Hikari pool is asked for one within the time
	// left, any other lends on a lender thread, what it lends later given straight back.
	Connection connection(DataSource dataSource, long answerByNanos) throws SQLException {
		Connection hikari = ListenConnections.HIKARI_PRESENT
				? ListenConnections.Hikari.connection(dataSource, millisLeft(answerByNanos)) : null;
		if (hikari != null) {
			return hikari;
		}
		try {
			return this.lender.borrow(answerByNanos, dataSource::getConnection, JdbcUtils::closeConnection);
		}
		catch (SQLException | RuntimeException ex) {
			throw ex;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new SQLException("Interrupted while waiting for a connection", ex);
		}
		catch (Exception ex) {
			// the time left passed: as a Hikari pool says it
			// (SQLTransientConnectionException)
			throw new SQLTransientConnectionException(ex.getMessage(), ex);
		}
	}

	// The connection's reads end by the instant; answers the timeout to restore, or -1
	// when the driver cannot be told.
	static int bound(Connection connection, long answerByNanos) {
		try {
			int before = connection.getNetworkTimeout();
			connection.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, millisLeft(answerByNanos)));
			return before;
		}
		catch (SQLException | RuntimeException ex) {
			return -1;
		}
	}

	static void restore(Connection connection, int networkTimeout) {
		if (networkTimeout < 0) {
			return;
		}
		try {
			connection.setNetworkTimeout(Runnable::run, networkTimeout);
		}
		catch (SQLException | RuntimeException ex) {
			// a broken connection, which the pool discards
		}
	}

	private static long millisLeft(long answerByNanos) {
		return Math.max(1, TimeUnit.NANOSECONDS.toMillis(answerByNanos - System.nanoTime()));
	}

}
