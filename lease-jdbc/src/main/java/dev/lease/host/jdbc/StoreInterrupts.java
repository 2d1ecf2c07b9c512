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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import javax.sql.DataSource;

import dev.lease.host.Interrupts;

/**
 * How the host's store calls meet interrupts (Host semantics): a call answers whatever
 * interrupts arrive, and the caller finds its interrupt flag set again afterwards; a take
 * that has asked nothing yet, or a waiter about to ask where it stands, may give up
 * instead, as long as nothing was sent.
 * <p>
 * A pending interrupt is put aside for the call, because a pool refuses to wait for a
 * connection with one (Hikari: "Interrupted during connection acquisition", the flag set
 * again). An interrupt that ends the wait for a connection has sent nothing, so the call
 * waits for one again, or gives up by {@link dev.lease.host.GaveUp}. The drivers' socket
 * reads (PostgreSQL, MariaDB) are not interruptible. H2 in the same JVM ends a wait for a
 * row lock at an interrupt, swallows it and reports a lock timeout: its transaction was
 * rolled back and is run again like any lock timeout, and the interrupt is told from a
 * timeout by the wait having been shorter than H2's lock timeout.
 *
 * @author Lease contributors
 */
final class StoreInterrupts {

	// H2's "Timeout trying to lock table".
	private static final int H2_LOCK_TIMEOUT = 50200;

	private final ThreadLocal<Boolean> mayGiveUp = new ThreadLocal<>();

	private final long h2LockTimeoutNanos;

	private StoreInterrupts(long h2LockTimeoutNanos) {
		this.h2LockTimeoutNanos = h2LockTimeoutNanos;
	}

	// On H2, read its lock timeout once; a URL or the database sets it for every
	// session.
	static StoreInterrupts of(DataSource dataSource, JdbcLeaseDialect dialect) {
		if (dialect != JdbcLeaseDialect.H2) {
			return new StoreInterrupts(-1);
		}
		try (Connection connection = dataSource.getConnection();
				Statement statement = connection.createStatement();
				ResultSet lockTimeout = statement.executeQuery("SELECT LOCK_TIMEOUT()")) {
			return new StoreInterrupts(lockTimeout.next() ? TimeUnit.MILLISECONDS.toNanos(lockTimeout.getLong(1)) : -1);
		}
		catch (SQLException ex) {
			return new StoreInterrupts(-1);
		}
	}

	// Run an action whose first store call may give up at an interrupt, if it has sent
	// nothing; every later call answers.
	<T> T givingUp(Supplier<T> action) {
		this.mayGiveUp.set(Boolean.TRUE);
		try {
			return action.get();
		}
		finally {
			this.mayGiveUp.remove();
		}
	}

	// Whether this store call may give up; asked once, at its start.
	boolean mayGiveUp() {
		if (this.mayGiveUp.get() == null) {
			return false;
		}
		this.mayGiveUp.remove();
		return true;
	}

	// Whether the wait for a connection was ended by an interrupt (and nothing was sent).
	static boolean interruptedWaitingForConnection(RuntimeException failure) {
		return Thread.interrupted() | Interrupts.causedByInterrupt(failure);
	}

	// Whether H2 ended a wait for a row lock at an interrupt, before its lock timeout.
	boolean lockWaitInterrupted(RuntimeException failure, long elapsedNanos) {
		return this.h2LockTimeoutNanos >= 0 && failure.getCause() instanceof SQLException cause
				&& cause.getErrorCode() == H2_LOCK_TIMEOUT && elapsedNanos < this.h2LockTimeoutNanos;
	}

}
