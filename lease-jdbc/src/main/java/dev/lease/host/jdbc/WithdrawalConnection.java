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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.support.JdbcUtils;

/**
 * The one connection of a {@link JdbcLeaseHost} on which waiters that give up withdraw,
 * outside the application's pool (Host semantics): a waiter interrupted while every
 * pooled connection is busy would otherwise wait the pool's connection timeout before it
 * could withdraw, and may not return before it has, since nothing may stand for it
 * afterwards.
 * <p>
 * Withdrawals take turns on it. Each is one short transaction that waits for no other
 * connection, so a waiter waits at most for the withdrawals ahead of it, and for the
 * connection to be opened, once. It is opened at the first withdrawal from where the
 * {@code LISTEN} connection would be ({@link ListenConnections}, never borrowed from the
 * pool), kept, checked after a second unused, and opened again after a failure. When it
 * cannot be opened (the database's connection table is full, its settings refused), the
 * withdrawal borrows one of the pool's connections, which are open already, rather than
 * fail. With a pool whose connections cannot be opened outside it there is none, and
 * withdrawals wait for the pool as every other call.
 *
 * @author Lease contributors
 */
final class WithdrawalConnection {

	// As a pool does, a connection used this recently is not asked whether it lives.
	private static final long TRUSTED_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static final int VALIDATION_TIMEOUT_SECONDS = 1;

	private final ListenConnections source;

	private final ReentrantLock turns = new ReentrantLock();

	private @Nullable Connection connection;

	private long lastUsed;

	private volatile boolean closed;

	private WithdrawalConnection(ListenConnections source) {
		this.source = source;
	}

	// The withdrawal connection, or null when only the pool can lend one.
	static @Nullable WithdrawalConnection of(DataSource dataSource, @Nullable DataSource listenDataSource) {
		ListenConnections outside = ListenConnections.outsidePool(dataSource, listenDataSource);
		return (outside != null) ? new WithdrawalConnection(outside) : null;
	}

	// Run a withdrawal on the connection, in its turn, or elsewhere (on the pool, out of
	// turn) when it cannot be opened; it is not interruptible, since a waiter that gave
	// up must not return before it has withdrawn.
	<T> T use(Function<Connection, T> withdrawal, Supplier<T> elsewhere) {
		this.turns.lock();
		Connection open;
		try {
			open = connection();
		}
		catch (Transaction.NotConnected unopened) {
			this.turns.unlock();
			try {
				return elsewhere.get();
			}
			catch (RuntimeException ex) {
				ex.addSuppressed(unopened);
				throw ex;
			}
		}
		boolean keep = false;
		try {
			T result = withdrawal.apply(open);
			keep = true;
			return result;
		}
		catch (PessimisticLockingFailureException ex) {
			// Rolled back whole: the connection is fine.
			keep = true;
			throw ex;
		}
		finally {
			this.lastUsed = System.nanoTime();
			if (!keep || this.closed) {
				discard();
			}
			this.turns.unlock();
		}
	}

	// Closed now, or by the withdrawal that holds it, which close does not wait for;
	// after this, each withdrawal opens one for itself and closes it.
	void close() {
		this.closed = true;
		if (this.turns.tryLock()) {
			try {
				discard();
			}
			finally {
				this.turns.unlock();
			}
		}
	}

	private Connection connection() {
		Connection connection = this.connection;
		try {
			if (connection != null && System.nanoTime() - this.lastUsed > TRUSTED_NANOS
					&& !connection.isValid(VALIDATION_TIMEOUT_SECONDS)) {
				discard();
				connection = null;
			}
			if (connection == null) {
				connection = this.source.open();
				this.connection = connection;
			}
			return connection;
		}
		catch (SQLException ex) {
			discard();
			throw new Transaction.NotConnected(ex);
		}
	}

	private void discard() {
		Connection connection = this.connection;
		this.connection = null;
		// broken already, where closing it fails
		JdbcUtils.closeConnection(connection);
	}

}
