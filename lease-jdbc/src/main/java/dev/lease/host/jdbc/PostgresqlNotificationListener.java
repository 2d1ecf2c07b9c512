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

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.lease.LeaseKey;
import dev.lease.host.HostThreads;
import dev.lease.host.Wakeups;

/**
 * The one listening connection of a {@link JdbcLeaseHost} on PostgreSQL: a daemon thread
 * that runs {@code LISTEN} on the host's channel and wakes the waiters of each key named
 * by a notification. The driver's API is reached by reflection so that the PostgreSQL
 * driver stays a run-time choice of the application. The connection is opened outside the
 * application's pool where it can be ({@link ListenConnections}). A connection that only
 * reads never learns that the network dropped it (a NAT or firewall idle timeout), so one
 * the database has said nothing on for {@link #SILENCE_MILLIS} is sent a query, and a
 * read that waits longer than {@link #ANSWER_MILLIS} fails it: a silent connection is
 * given up within 2.5 s of the database's last word. When it fails, each key's delegate
 * is woken to poll, with a short bounded backoff, until it is back; it is re-opened after
 * a backoff that doubles up to a bound, and every waiter asks once when it listens again
 * (Host semantics).
 *
 * @author Lease contributors
 */
final class PostgresqlNotificationListener {

	private static final Log logger = LogFactory.getLog(PostgresqlNotificationListener.class);

	private static final int POLL_MILLIS = 500;

	/**
	 * How long the database may say nothing on the connection before it is sent a query.
	 */
	static final int SILENCE_MILLIS = 1000;

	/**
	 * How long any read on the connection may wait for the database.
	 */
	static final int ANSWER_MILLIS = 1500;

	// Not sooner: re-listening wakes every waiter, and a waiter that asks at once may
	// meet
	// the pool's broken connections that the pool has not yet validated, and fail
	// (PostgresqlConnectionFaultIntegrationTests failed 2 times in 4 with 100 ms).
	private static final long FIRST_RECONNECT_MILLIS = 1000;

	private static final long MAXIMUM_RECONNECT_MILLIS = 8000;

	private final ListenConnections connections;

	private final String channel;

	private final Wakeups<LeaseKey, Long> wakeups;

	private final PickedUpWaiters pickedUp;

	private final String deleteWaiter;

	private final String database;

	private final String settings;

	private volatile boolean listening;

	private volatile boolean running = true;

	private final HostThreads threads;

	private @Nullable Thread thread;

	// Its loop holds a thread of the host's own for the host's life, never one of the
	// application's executor: a bounded one could keep it queued behind the waiters it
	// wakes (HostThreads).
	PostgresqlNotificationListener(ListenConnections connections, String channel, Wakeups<LeaseKey, Long> wakeups,
			PickedUpWaiters pickedUp, String deleteWaiter, String database, String settings, HostThreads threads) {
		this.threads = threads;
		this.connections = connections;
		this.channel = channel;
		this.wakeups = wakeups;
		this.pickedUp = pickedUp;
		this.deleteWaiter = deleteWaiter;
		this.database = database;
		this.settings = settings;
	}

	// Start listening unless already started.
	synchronized void start() {
		if (this.thread == null && this.running) {
			this.thread = this.threads.startLoop("listener-" + this.channel, this::run);
		}
	}

	boolean isListening() {
		return this.listening;
	}

	void stop() {
		Thread listener;
		synchronized (this) {
			this.running = false;
			listener = this.thread;
		}
		if (listener != null) {
			listener.interrupt();
			try {
				listener.join(TimeUnit.SECONDS.toMillis(5));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void run() {
		long backoff = FIRST_RECONNECT_MILLIS;
		boolean warned = false;
		while (this.running) {
			@Nullable Exception failure = null;
			try (Connection connection = this.connections.open()) {
				listen(connection);
			}
			catch (Exception ex) {
				failure = ex;
			}
			if (this.listening) {
				// It listened: this failure is a new one, told and re-opened soon. What
				// was sent since the database's last word is lost: each key's delegate
				// polls from now on, and wakes whom the committed handoffs name. Not
				// every waiter asking at once: a failed poll costs nothing, a failed
				// question fails its take, and the pool may hold connections broken by
				// the same fault.
				this.listening = false;
				this.wakeups.wakeDelegates();
				backoff = FIRST_RECONNECT_MILLIS;
				warned = false;
			}
			if (!this.running) {
				return;
			}
			if (!warned) {
				logger.warn(interrupted(failure), failure);
				warned = true;
			}
			else if (logger.isDebugEnabled()) {
				logger.debug("Lease notifications on channel '" + this.channel + "' are still interrupted", failure);
			}
			try {
				Thread.sleep(backoff);
			}
			catch (InterruptedException ex) {
				return;
			}
			backoff = Math.min(backoff * 2, MAXIMUM_RECONNECT_MILLIS);
		}
	}

	// The warning of an interruption, which says what to check when the database could
	// not be reached.
	String interrupted(@Nullable Exception failure) {
		String unreachable = (failure != null)
				? UnreachableDatabase.message(this.database, failure, this.settings, false) : null;
		return "Lease notifications on channel '" + this.channel + "' are interrupted; waiters poll until they are back"
				+ ((unreachable != null) ? ": " + unreachable : "");
	}

	private void listen(Connection connection) throws Exception {
		if (!connection.getAutoCommit()) {
			connection.setAutoCommit(true);
		}
		connection.setNetworkTimeout(Runnable::run, ANSWER_MILLIS);
		ClassLoader classLoader = connection.getClass().getClassLoader();
		Class<?> pgConnectionType = Class.forName("org.postgresql.PGConnection", false,
				(classLoader != null) ? classLoader : getClass().getClassLoader());
		Object pgConnection = connection.unwrap(pgConnectionType);
		Method getNotifications = pgConnectionType.getMethod("getNotifications", int.class);
		Method getParameter = Class.forName("org.postgresql.PGNotification", false, pgConnectionType.getClassLoader())
			.getMethod("getParameter");
		try (Statement statement = connection.createStatement()) {
			statement.execute("LISTEN " + this.channel);
		}
		this.listening = true;
		// Anything sent while nobody listened is lost: each key's delegate finds what
		// was handed meanwhile and wakes whom it names.
		this.wakeups.wakeDelegatesToAsk();
		long heard = System.nanoTime();
		while (this.running) {
			long silent = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - heard);
			// Never zero, which would wait for ever.
			int wait = (int) Math.max(1, Math.min(POLL_MILLIS, SILENCE_MILLIS - silent));
			Object[] notifications = (Object[]) getNotifications.invoke(pgConnection, wait);
			if (notifications != null && notifications.length > 0) {
				heard = System.nanoTime();
				for (Object notification : notifications) {
					wake((String) getParameter.invoke(notification));
				}
			}
			if (!this.pickedUp.isEmpty()) {
				try (PreparedStatement delete = connection.prepareStatement(this.deleteWaiter)) {
					this.pickedUp.remove((id) -> {
						delete.setLong(1, id);
						delete.executeUpdate();
					});
				}
				heard = System.nanoTime();
			}
			if (System.nanoTime() - heard >= TimeUnit.MILLISECONDS.toNanos(SILENCE_MILLIS)) {
				// Answered within ANSWER_MILLIS, or the connection fails.
				try (Statement check = connection.createStatement()) {
					check.execute("SELECT 1");
				}
				heard = System.nanoTime();
			}
		}
	}

	// Only the waiters named wake, the ones handed the key to take their grant without
	// asking, the one next in line to ask when the standing grant ends; a payload that
	// names nobody wakes every waiter of its key once, and each asks.
	private void wake(@Nullable String text) {
		PostgresqlHandoffMessage payload = PostgresqlHandoffMessage.decode(text);
		if (payload == null) {
			return;
		}
		// A message naming nobody wakes every waiter of the key to ask.
		if (payload.namesNobody() || !payload.handed().isEmpty()) {
			this.wakeups.wake(payload.key(), payload.handed());
		}
		Wakeups.NextInLine<Long> next = payload.next();
		if (next != null) {
			this.wakeups.nextInLine(payload.key(), next.waiter(), next.standingExpiresAt());
		}
	}

}
