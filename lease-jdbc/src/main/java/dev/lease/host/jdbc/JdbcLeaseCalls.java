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

import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.host.Wakeups;

/**
 * Runs the JDBC host's store calls: each on a connection of its own, as one transaction
 * or one auto-committed statement, run again after a deadlock or lock timeout, and waking
 * this host's waiters of the key once a call that handed the key on has committed. A
 * failure is answered as a {@link LeaseHostException} naming what could not be done.
 *
 * @author Lease contributors
 */
final class JdbcLeaseCalls {

	private static final int ATTEMPTS = 8;

	private final DataSource dataSource;

	private final JdbcLeaseDialect dialect;

	private final String selectNow;

	private final StoreInterrupts interrupts;

	private final Wakeups<LeaseKey, Long> wakeups;

	JdbcLeaseCalls(DataSource dataSource, JdbcLeaseDialect dialect, String selectNow, StoreInterrupts interrupts,
			Wakeups<LeaseKey, Long> wakeups) {
		this.dataSource = dataSource;
		this.dialect = dialect;
		this.selectNow = selectNow;
		this.interrupts = interrupts;
		this.wakeups = wakeups;
	}

	<T> T transaction(String what, @Nullable LeaseKey key, Transaction.Work<T> work) {
		return run(what, key, false, work);
	}

	<T> T statement(String what, @Nullable LeaseKey key, Transaction.Work<T> work) {
		return run(what, key, true, work);
	}

	// A store call answers whatever interrupts arrive and leaves the flag set again
	// (StoreInterrupts); it gives up only where allowed, and only before sending
	// anything.
	private <T> T run(String what, @Nullable LeaseKey key, boolean autoCommit, Transaction.Work<T> work) {
		boolean mayGiveUp = this.interrupts.mayGiveUp();
		boolean interrupted = Thread.interrupted();
		try {
			SQLException failure = null;
			for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
				long started = System.nanoTime();
				try {
					Transaction tx = new Transaction(this.selectNow, this.dialect.needsReadCommitted());
					T result = Transaction.run(this.dataSource, tx, autoCommit, work);
					if (!tx.handoffs.isEmpty() && key != null) {
						this.wakeups.wake(key, tx.handoffs);
					}
					return result;
				}
				catch (Transaction.NotConnected ex) {
					failure = ex;
					if (!StoreInterrupts.interruptedWaitingForConnection(ex)) {
						break;
					}
					interrupted = true;
					if (mayGiveUp) {
						throw new StoreInterrupts.GaveUp();
					}
					attempt--;
				}
				catch (SQLException ex) {
					failure = ex;
					if (this.interrupts.lockWaitInterrupted(ex, System.nanoTime() - started)) {
						// Rolled back whole, and no attempt spent: an interrupt is no
						// conflict.
						interrupted = true;
						attempt--;
						continue;
					}
					if (!Transaction.isTransient(ex)) {
						break;
					}
					pauseBeforeRetry(attempt);
				}
			}
			String message = "Could not " + what + ((key != null) ? " for key '" + key + "'" : "") + " on "
					+ this.dialect.displayName();
			throw (failure != null) ? new LeaseHostException(message + ": " + failure.getMessage(), failure)
					: new LeaseHostException(message);
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	// A deadlock or lock timeout undid the whole transaction: try again after a short,
	// random pause so that the racers do not meet again in the same order.
	private static void pauseBeforeRetry(int attempt) {
		long micros = ThreadLocalRandom.current().nextLong(100, 1_000L << Math.min(attempt, 6));
		LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(micros));
	}

}
