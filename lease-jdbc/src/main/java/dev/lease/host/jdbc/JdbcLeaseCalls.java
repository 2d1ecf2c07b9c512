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
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.host.GaveUp;
import dev.lease.host.HostThreads;
import dev.lease.host.Wakeups;

/**
 * Runs the JDBC host's store calls: each on a connection of its own, as one transaction
 * ({@link TransactionTemplate}) or one auto-committed statement, run again after a
 * deadlock, serialization failure or lock timeout as Spring translates them
 * ({@link PessimisticLockingFailureException}), and waking this host's waiters of the key
 * once a call that handed the key on has committed. A failure is answered as a
 * {@link LeaseHostException} naming what could not be done, or, when the database could
 * not be reached, naming the database and what to check ({@link UnreachableDatabase}).
 * <p>
 * The host's connections are bound under a data source of its own that only delegates to
 * the application's, so a call made inside the application's transaction on the same data
 * source never joins it: a grant does not roll back with the caller's work (Non-goal 6).
 * A waiter's withdrawal runs on the host's {@link WithdrawalConnection}, outside the
 * pool, where it has one.
 *
 * @author Lease contributors
 */
final class JdbcLeaseCalls {

	private static final int ATTEMPTS = 8;

	private final DataSource dataSource;

	private final DataSource own;

	private final JdbcLeaseDialect dialect;

	private final String database;

	private final String selectNow;

	private final JdbcTemplate jdbc;

	private final TransactionTemplate transactions;

	private final StoreInterrupts interrupts;

	private final Wakeups<LeaseKey, Long> wakeups;

	private final @Nullable WithdrawalConnection withdrawals;

	private final AnswerDeadline deadline;

	// The host's threads: its waiters' withdrawals and lenders, its clean-up, its
	// listener.
	final HostThreads threads;

	JdbcLeaseCalls(DataSource dataSource, JdbcLeaseDialect.Detected database, String selectNow,
			StoreInterrupts interrupts, Wakeups<LeaseKey, Long> wakeups, @Nullable WithdrawalConnection withdrawals,
			HostThreads threads) {
		this.threads = threads;
		this.deadline = new AnswerDeadline(threads.executor());
		JdbcLeaseDialect dialect = database.dialect();
		this.dataSource = dataSource;
		this.own = new DelegatingDataSource(dataSource);
		this.dialect = dialect;
		this.database = database.database();
		this.selectNow = selectNow;
		SQLExceptionTranslator translator = new SQLErrorCodeSQLExceptionTranslator(dialect.clock().productName());
		this.jdbc = new JdbcTemplate(this.own);
		this.jdbc.setExceptionTranslator(translator);
		JdbcTransactionManager manager = new JdbcTransactionManager(this.own);
		manager.setExceptionTranslator(translator);
		this.transactions = new TransactionTemplate(manager);
		if (dialect.needsReadCommitted()) {
			// InnoDB's default REPEATABLE READ takes gap locks that make racing inserts
			// of
			// one key deadlock; READ COMMITTED does not, and is all the host needs.
			this.transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		}
		this.interrupts = interrupts;
		this.wakeups = wakeups;
		this.withdrawals = withdrawals;
	}

	// Whether a waiter of the key waits in this JVM.
	boolean hasWaiters(LeaseKey key) {
		return this.wakeups.hasWaiters(key);
	}

	// Whether the named waiter of the key waits in this JVM.
	boolean waitsHere(LeaseKey key, long waiter) {
		return this.wakeups.waitsHere(key, waiter);
	}

	<T> T transaction(String what, @Nullable LeaseKey key, Transaction.Work<T> work) {
		return run(what, key, Call.TRANSACTION, work);
	}

	<T> T statement(String what, @Nullable LeaseKey key, Transaction.Work<T> work) {
		return run(what, key, Call.STATEMENT, work);
	}

	// A waiter's withdrawal, as one transaction: on the withdrawal connection, where the
	// host has one, so that it never waits for a busy pool.
	<T> T withdrawal(String what, LeaseKey key, Transaction.Work<T> work) {
		return run(what, key, (this.withdrawals != null) ? Call.WITHDRAWAL : Call.TRANSACTION, work);
	}

	// A store call answers whatever interrupts arrive and leaves the flag set again
	// (StoreInterrupts); it gives up only where allowed, and only before sending
	// anything.
	private <T> T run(String what, @Nullable LeaseKey key, Call call, Transaction.Work<T> work) {
		boolean mayGiveUp = this.interrupts.mayGiveUp();
		boolean interrupted = Thread.interrupted();
		try {
			RuntimeException failure = null;
			boolean keyLockHeld = false;
			for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
				long started = System.nanoTime();
				try {
					Transaction tx = new Transaction(this.jdbc, this.selectNow);
					Long answerBy = this.deadline.current();
					T result = switch (call) {
						case TRANSACTION ->
							(answerBy != null) ? onOwnConnection(answerBy, () -> inTransaction(() -> work.run(tx)))
									: inTransaction(() -> work.run(tx));
						case STATEMENT -> onOwnConnection(answerBy, () -> inAutoCommit(() -> work.run(tx)));
						case WITHDRAWAL -> onWithdrawalConnection(() -> work.run(tx));
					};
					if (!tx.handoffs.isEmpty() && key != null) {
						this.wakeups.wake(key, tx.handoffs);
					}
					Wakeups.NextInLine<Long> next = tx.nextInLine;
					if (next != null && key != null) {
						this.wakeups.nextInLine(key, next.waiter(), next.standingExpiresAt());
					}
					return result;
				}
				catch (Transaction.NotConnected | CannotCreateTransactionException ex) {
					// Answered with the pool's or the driver's own words, whichever way
					// the connection was asked for.
					failure = (ex instanceof CannotCreateTransactionException && ex.getCause() != null)
							? new Transaction.NotConnected(ex.getCause()) : ex;
					if (!StoreInterrupts.interruptedWaitingForConnection(ex)) {
						break;
					}
					interrupted = true;
					if (mayGiveUp) {
						throw new GaveUp("a database connection");
					}
					attempt--;
				}
				catch (DataAccessException | TransactionException ex) {
					failure = ex;
					if (this.interrupts.lockWaitInterrupted(ex, System.nanoTime() - started)) {
						// Rolled back whole, and no attempt spent: an interrupt is no
						// conflict.
						interrupted = true;
						attempt--;
						continue;
					}
					// PostgreSQL's lock_timeout passed (lock_not_available): on the
					// key's lock, or a row lock after it, which the host's own
					// questions hold for a few statements only. Not run again: the
					// session that holds it is no question of the host, and a take or
					// try take must not wait for it past the bound (a failure of the
					// store, never a wrong answer).
					if (ex instanceof CannotAcquireLockException && ex.getCause() instanceof SQLException cause
							&& "55P03".equals(cause.getSQLState())) {
						keyLockHeld = true;
						break;
					}
					// Deadlocks, serialization failures and lock timeouts: the
					// transaction was undone whole and may be run again. A connection
					// that cannot be had is not retried here: the pool has already
					// waited for it.
					if (!(ex instanceof PessimisticLockingFailureException)) {
						break;
					}
					// After a short, random pause, so that the racers do not meet again
					// in the same order.
					long pauseMicros = ThreadLocalRandom.current().nextLong(100, 1_000L << Math.min(attempt, 6));
					LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(pauseMicros));
				}
			}
			// Every attempt that did not answer left its failure.
			String operation = what + ((key != null) ? " for key '" + key + "'" : "");
			LeaseHostException unreachable = UnreachableDatabase.of(this.database, operation, failure, false);
			if (unreachable != null) {
				throw unreachable;
			}
			String message = "Could not " + operation + " on " + this.dialect.displayName()
					+ (keyLockHeld ? ": another session held the key's lock longer than "
							+ JdbcLeaseStatements.KEY_LOCK_WAIT_MILLIS + " ms" : "");
			throw new LeaseHostException(message + ": " + failure.getMessage(), failure);
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	// A pool that had lent every connection and timed out waiting for one back: JDBC's
	// SQLTransientConnectionException with no failure to connect behind it, as Hikari
	// reports it. Nothing was sent, and the database answers: a take may wait for a
	// connection again.
	static boolean poolBusy(Throwable failure) {
		boolean notConnected = false;
		Throwable link = failure;
		for (int i = 0; link != null && i < UnreachableDatabase.MAXIMUM_CAUSES; i++) {
			notConnected |= link instanceof Transaction.NotConnected;
			if (notConnected && link instanceof SQLTransientConnectionException && link.getCause() == null) {
				return true;
			}
			link = (link.getCause() != link) ? link.getCause() : null;
		}
		return false;
	}

	// Committed when the work returns, rolled back when it throws, so that a failed
	// question leaves no half-written state.
	private <T> T inTransaction(Supplier<T> work) {
		return this.transactions.execute((status) -> work.get());
	}

	// The work on a connection of the host's own, had, and answered, by the instant
	// where the call has one (AnswerDeadline).
	private <T> T onOwnConnection(@Nullable Long answerBy, Supplier<T> work) {
		Connection connection;
		try {
			connection = (answerBy != null) ? this.deadline.connection(this.dataSource, answerBy)
					: this.dataSource.getConnection();
		}
		catch (SQLException ex) {
			throw new Transaction.NotConnected(ex);
		}
		int networkTimeout = (answerBy != null) ? AnswerDeadline.bound(connection, answerBy) : -1;
		try {
			return bound(connection, work);
		}
		finally {
			AnswerDeadline.restore(connection, networkTimeout);
			JdbcUtils.closeConnection(connection);
		}
	}

	// The work with the connection bound under the host's data source, for the
	// transaction manager to begin a transaction on, and the template to run on.
	private <T> T bound(Connection connection, Supplier<T> work) {
		TransactionSynchronizationManager.bindResource(this.own, new ConnectionHolder(connection));
		try {
			return work.get();
		}
		finally {
			TransactionSynchronizationManager.unbindResource(this.own);
		}
	}

	// Store calls that must answer by the instant (a System.nanoTime() reading), or fail.
	<T> T answeringBy(long answerByNanos, Supplier<T> calls) {
		return this.deadline.answeringBy(answerByNanos, calls);
	}

	// The one-statement questions: in auto-commit, on the bound connection.
	private <T> T inAutoCommit(Supplier<T> work) {
		return this.jdbc.execute((ConnectionCallback<T>) (bound) -> {
			boolean wasAutoCommit = bound.getAutoCommit();
			if (!wasAutoCommit) {
				bound.setAutoCommit(true);
			}
			try {
				return work.get();
			}
			finally {
				if (!wasAutoCommit) {
					try {
						bound.setAutoCommit(false);
					}
					catch (SQLException ex) {
						// the pool resets the connection, or discards it
					}
				}
			}
		});
	}

	// A transaction on the withdrawal connection, bound under the host's data source:
	// the transaction manager begins it on the bound connection, and leaves it open. On
	// a pooled connection when that one cannot be opened.
	private <T> T onWithdrawalConnection(Supplier<T> work) {
		WithdrawalConnection withdrawals = this.withdrawals;
		if (withdrawals == null) {
			return inTransaction(work);
		}
		return withdrawals.use((connection) -> bound(connection, () -> inTransaction(work)), () -> inTransaction(work));
	}

	/**
	 * How a store call meets its connection.
	 */
	private enum Call {

		/** One transaction on a pooled connection. */
		TRANSACTION,

		/** One auto-committed statement on a pooled connection. */
		STATEMENT,

		/** One transaction on the withdrawal connection. */
		WITHDRAWAL

	}

}
