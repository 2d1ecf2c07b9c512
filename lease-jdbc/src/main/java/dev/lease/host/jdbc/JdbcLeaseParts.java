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

import java.time.Duration;
import java.util.Locale;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseKey;
import dev.lease.host.HostThreads;
import dev.lease.host.LazyStart;
import dev.lease.host.StoreProtocolReading;
import dev.lease.host.Wakeups;

/**
 * The parts of a {@link JdbcLeaseHost} that depend on its database's dialect, built once
 * the database has said which it is and the store's protocol record was met
 * ({@link JdbcProtocolRecord}). Built through the host kit's {@link LazyStart}, so that a
 * host built while the database is down starts at the first call that reaches it.
 *
 * @param dialect the database's dialect
 * @param store the store's reads and writes
 * @param grantReads the reads for operators
 * @param waiting the takes that may queue
 * @param sweeper the clean-up
 * @param listener the listening connection, on PostgreSQL with notifications
 * @param pickedUp the waiter rows of grants taken up from a notification
 * @param withdrawals the connection waiters withdraw on, where the host has one
 * @param protocol the store's protocol record as it stands
 * @author Lease contributors
 */
record JdbcLeaseParts(JdbcLeaseDialect dialect, JdbcLeaseStore store, JdbcGrantReads grantReads,
		JdbcLeaseWaiting waiting, JdbcLeaseSweeper sweeper, @Nullable PostgresqlNotificationListener listener,
		PickedUpWaiters pickedUp, @Nullable WithdrawalConnection withdrawals,
		Supplier<StoreProtocolReading> protocol) implements AutoCloseable {

	static LazyStart<JdbcLeaseParts> lazy(DataSource dataSource, String tablePrefix, boolean notifications,
			@Nullable DataSource listenDataSource, Duration cleanupInterval, HostThreads threads) {
		JdbcProtocolRecord protocol = new JdbcProtocolRecord(tablePrefix);
		return new LazyStart<>(() -> {
			JdbcLeaseDialect.Detected database = JdbcLeaseDialect.detect(dataSource);
			// a protocol this one cannot work beside leaves the host unstarted: every
			// call fails the same way
			protocol.meet(dataSource);
			JdbcLeaseDialect dialect = database.dialect();
			JdbcLeaseStatements statements = new JdbcLeaseStatements(dialect, tablePrefix);
			StoreInterrupts interrupts = StoreInterrupts.of(dataSource, dialect);
			String channel = (tablePrefix + "KEYS").toLowerCase(Locale.ROOT);
			Wakeups<LeaseKey, Long> wakeups = new Wakeups<>();
			PickedUpWaiters pickedUp = new PickedUpWaiters();
			// A listen data source of its own is reported as such, with its own setting.
			String listenDatabase = (listenDataSource != null) ? UnreachableDatabase.name(listenDataSource)
					: database.database();
			String listenSettings = (listenDataSource != null) ? "lease.jdbc.listen-url"
					: UnreachableDatabase.DATASOURCE_SETTINGS;
			PostgresqlNotificationListener listener = (dialect.notifies() && notifications)
					? new PostgresqlNotificationListener(ListenConnections.of(dataSource, listenDataSource), channel,
							wakeups, pickedUp, statements.deleteWaiter, listenDatabase, listenSettings, threads)
					: null;
			WithdrawalConnection withdrawals = WithdrawalConnection.of(dataSource, listenDataSource);
			JdbcLeaseCalls calls = new JdbcLeaseCalls(dataSource, database, statements.selectNow, interrupts, wakeups,
					withdrawals, threads);
			JdbcLeaseStore store = JdbcLeaseStore.of(calls, statements, dialect, pickedUp, channel, listener != null);
			JdbcLeaseWaiting waiting = new JdbcLeaseWaiting(store, wakeups, interrupts, pickedUp, listener);
			JdbcGrantReads grantReads = new JdbcGrantReads(store);
			JdbcLeaseSweeper sweeper = new JdbcLeaseSweeper(store, cleanupInterval, threads);
			return new JdbcLeaseParts(dialect, store, grantReads, waiting, sweeper, listener, pickedUp, withdrawals,
					() -> protocol.read(dataSource));
		}, "The JDBC lease host is closed");
	}

	// Stop the clean-up's schedule and the listening connection, if any; waiters still
	// waiting fall back to polling, and withdraw on a connection opened for each. The
	// host's threads stop after this.
	@Override
	public void close() {
		this.sweeper.close();
		if (this.withdrawals != null) {
			this.withdrawals.close();
		}
		if (this.listener != null) {
			this.listener.stop();
			if (!this.pickedUp.isEmpty()) {
				this.store.removePickedUpWaiters();
			}
		}
	}

}
