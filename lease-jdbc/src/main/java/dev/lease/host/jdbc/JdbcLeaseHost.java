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
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.Assert;

import dev.lease.AsyncLeaseHost;
import dev.lease.GrantsPage;
import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.QueuedTakes;
import dev.lease.ReleaseResult;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.TryTakeResult;
import dev.lease.host.HostArguments;
import dev.lease.host.HostBuilder;
import dev.lease.host.HostThreads;
import dev.lease.host.LazyStart;
import dev.lease.host.Micros;
import dev.lease.host.ProtocolRecordingHost;
import dev.lease.host.StoreProtocolReading;
import dev.lease.host.TakeAnswer;
import dev.lease.host.TakeAnswer.Granted;

/**
 * A {@link LeaseHost} on a relational database: PostgreSQL, MySQL or MariaDB, or H2,
 * chosen from the connection's metadata. Shared by every application instance that uses
 * the same tables, and durable as the database is (Invariant 2.2).
 * <p>
 * Every instant is read from the database's clock inside the transaction, after the key's
 * row is locked, and stored as microseconds since the epoch so that no time zone can
 * shift it; the JVM's clock decides nothing (Operation 10). The clock is never let go
 * back for a key: each key's row keeps the latest reading and the later of the two is
 * taken. Keys and holders are binary columns compared byte for byte (Identity 2 to 4).
 * <p>
 * Each question is one short transaction under READ COMMITTED that locks the key's row,
 * resolves the stored state at the database's now (Host semantics) and writes back what
 * it changed; no row lock is held while anyone waits. On PostgreSQL, a take of a free key
 * with nobody queued is one statement that reads the clock with the row locked (two when
 * the key has no row yet), and a release with nobody queued is one; on MySQL and MariaDB
 * these and a remaining with nobody queued are one statement each. Waiters are rows of a
 * second table in arrival order, read from the head a page at a time; they wait through
 * the host kit's {@link dev.lease.host.WaiterMachine}, woken by PostgreSQL
 * {@code LISTEN/NOTIFY} or a release made here, else polling. The {@code LISTEN}
 * connection is opened outside the application's pool
 * ({@link Builder#listenDataSource(DataSource)}, else a Hikari pool's settings, else an
 * unpooled data source; any other pool lends it, with a warning) and re-opened after a
 * failure with a bounded backoff. A released key leaves no row behind; a passed one with
 * nobody waiting is removed within {@link Builder#cleanupInterval(Duration)}.
 * <p>
 * A database that does not answer at construction is asked again at each call (each
 * throwing {@link LeaseHostException}, naming the database by its JDBC URL without
 * credentials) until it answers; the host then works as if built then.
 * <p>
 * The host uses connections of its own from the {@link DataSource}, never the caller's
 * transaction: a grant does not roll back with the caller's work (Non-goal 6). The tables
 * come from the schema scripts at {@link #SCHEMA_LOCATION}.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class JdbcLeaseHost implements LeaseHost, ProtocolRecordingHost, AutoCloseable {

	/**
	 * Location of the schema scripts, the versioned migrations, with Spring Boot's
	 * {@code @@platform@@} placeholder: {@code postgresql}, {@code mysql} (MySQL and
	 * MariaDB) or {@code h2}. Run in version order ({@link JdbcLeaseSchema}) they create
	 * the tables with the {@link #DEFAULT_TABLE_PREFIX default prefix}.
	 */
	public static final String SCHEMA_LOCATION = "classpath:dev/lease/host/jdbc/migration/@@platform@@/V*__*.sql";

	/** Location of the scripts that drop the tables, with the same placeholder. */
	public static final String DROP_SCHEMA_LOCATION = "classpath:dev/lease/host/jdbc/schema-drop-@@platform@@.sql";

	/** Prefix of the host's two tables, {@code LEASE_KEYS} and {@code LEASE_WAITERS}. */
	public static final String DEFAULT_TABLE_PREFIX = "LEASE_";

	/** How often the host removes passed rows unless told otherwise. */
	public static final Duration DEFAULT_CLEANUP_INTERVAL = Duration.ofSeconds(5);

	private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,47}");

	private static final HostArguments ARGUMENTS = HostArguments.of(Duration.ofNanos(1000),
			HostArguments.DEFAULT_MAXIMUM);

	private static final Log logger = LogFactory.getLog(JdbcLeaseHost.class);

	private final String tablePrefix;

	private final HostThreads threads;

	private final LazyStart<JdbcLeaseParts> parts;

	private final AsyncLeaseHost async;

	/**
	 * Create a host on the given data source with the default table prefix, waking
	 * waiters with {@code LISTEN/NOTIFY} on PostgreSQL.
	 * @param dataSource the database
	 * @throws LeaseHostException if the database is not supported
	 */
	public JdbcLeaseHost(DataSource dataSource) {
		this(builder(dataSource));
	}

	/**
	 * Create a host on the data source of the given template, with the default table
	 * prefix.
	 * @param jdbcTemplate a template whose data source is the database
	 * @throws LeaseHostException if the database is not supported
	 */
	public JdbcLeaseHost(JdbcTemplate jdbcTemplate) {
		this(builder(JdbcLeaseDialect.dataSourceOf(jdbcTemplate)));
	}

	private JdbcLeaseHost(Builder builder) {
		this.tablePrefix = builder.tablePrefix;
		this.threads = builder.threads("jdbc");
		this.async = AsyncLeaseHost.onThreads(this, this.threads.executor());
		this.parts = JdbcLeaseParts.lazy(builder.dataSource, builder.tablePrefix, builder.notifications,
				builder.listenDataSource, builder.cleanupInterval, this.threads);
		try {
			this.parts.get();
		}
		catch (RuntimeException ex) {
			if (!(ex instanceof LeaseHostException && ex.getCause() instanceof SQLException)) {
				close(); // a start that fails leaves no thread behind
				throw ex;
			}
			logger.warn("The JDBC lease host has not chosen its dialect; every call throws LeaseHostException until"
					+ " the database answers: " + ex.getMessage());
		}
	}

	/**
	 * Start building a host on the given data source.
	 * @param dataSource the database
	 * @return a builder
	 */
	public static Builder builder(DataSource dataSource) {
		return new Builder(dataSource);
	}

	/**
	 * Return Spring Boot's platform id of the database this host runs on, as used in
	 * {@link #SCHEMA_LOCATION}: {@code postgresql}, {@code mysql} or {@code h2}.
	 * @return the platform id
	 * @throws LeaseHostException if the database has not answered yet and does not answer
	 */
	public String platform() {
		return this.parts.get().dialect().platform();
	}

	/**
	 * Return the prefix of this host's tables.
	 * @return the table prefix
	 */
	public String tablePrefix() {
		return this.tablePrefix;
	}

	/**
	 * Check a table prefix: letters, digits and underscores, not starting with a digit,
	 * at most 48 characters.
	 * @param tablePrefix the prefix
	 * @return the prefix
	 * @throws IllegalArgumentException naming what is wrong with it
	 */
	public static String requireTablePrefix(String tablePrefix) {
		Assert.notNull(tablePrefix, "'tablePrefix' must not be null");
		Assert.isTrue(IDENTIFIER.matcher(tablePrefix).matches(), () -> "'tablePrefix' must be an SQL identifier:"
				+ " letters, digits and underscores, not starting with a digit, at most 48 characters, but was '"
				+ tablePrefix + "'");
		return tablePrefix;
	}

	@Override
	public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		long durationMicros = Micros.of(ARGUMENTS.requireTake(key, holder, duration));
		JdbcLeaseParts parts = this.parts.get();
		// Not after an interrupt, which returns at once, nor after a failure.
		TakeResult answer = parts.waiting().take(key, holder, durationMicros);
		parts.sweeper().sweepNowAndThen();
		return answer;
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		long durationMicros = Micros.of(ARGUMENTS.requireTake(key, holder, duration));
		JdbcLeaseParts parts = this.parts.get();
		try {
			// A try to take is refused rather than queued: it asks for no waiter id.
			TakeAnswer entered = parts.store().enter(key, holder, durationMicros, false, () -> 0);
			return (entered instanceof Granted granted) ? JdbcLeaseWaiting.taken(key, holder, granted) : new Held();
		}
		finally {
			parts.sweeper().sweepNowAndThen();
		}
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		HostArguments.requireKeyAndHolder(key, holder);
		return this.parts.get().store().remaining(key, holder);
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		HostArguments.requireKeyAndHolder(key, holder);
		return this.parts.get().store().release(key, holder) ? new Released() : new NotHeld();
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * One statement a page, in key order, the database clock read in it: a key is listed
	 * at most once in a pass.
	 */
	@Override
	public GrantsPage grants(@Nullable String cursor, int limit) {
		return this.parts.get().grantReads().page(cursor, HostArguments.requireLimit(limit));
	}

	@Override
	public Optional<Lease> grant(LeaseKey key) {
		HostArguments.requireKey(key);
		return this.parts.get().grantReads().grant(key);
	}

	@Override
	public Optional<Instant> grantedAt(Lease grant) {
		HostArguments.requireKey(grant.key());
		return this.parts.get().grantReads().grantedAt(grant);
	}

	@Override
	public Optional<QueuedTakes> waiting(LeaseKey key) {
		HostArguments.requireKey(key);
		return Optional.of(this.parts.get().grantReads().waiting(key));
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Served on the host's executor ({@link Builder#executor(Executor)}): JDBC has no
	 * non-blocking driver. A waiting take holds its thread, but no connection and no row
	 * lock.
	 */
	@Override
	public AsyncLeaseHost async() {
		return this.async;
	}

	/**
	 * Stop the clean-up, the listening connection and every thread the host started (a
	 * given executor is left running); waiters still waiting fall back to polling.
	 */
	@Override
	public void close() {
		this.parts.close();
		this.threads.close();
	}

	/**
	 * {@inheritDoc} The record is the one row of {@code <prefix>PROTOCOL}: the protocol
	 * the newest release started on these tables speaks; none where the table is missing.
	 */
	@Override
	public StoreProtocolReading protocol() {
		return this.parts.get().protocol().get();
	}

	/**
	 * Builds a {@link JdbcLeaseHost}.
	 */
	public static final class Builder extends HostBuilder<Builder> {

		private final DataSource dataSource;

		private String tablePrefix = DEFAULT_TABLE_PREFIX;

		private boolean notifications = true;

		private @Nullable DataSource listenDataSource;

		private Duration cleanupInterval = DEFAULT_CLEANUP_INTERVAL;

		private Builder(DataSource dataSource) {
			Assert.notNull(dataSource, "'dataSource' must not be null");
			this.dataSource = dataSource;
		}

		/**
		 * Use the given prefix for the host's tables ({@code <prefix>KEYS},
		 * {@code <prefix>WAITERS}); see {@link JdbcLeaseHost#requireTablePrefix(String)}.
		 * @param tablePrefix the prefix
		 * @return this builder
		 * @throws IllegalArgumentException if the prefix is not an SQL identifier
		 */
		public Builder tablePrefix(String tablePrefix) {
			this.tablePrefix = requireTablePrefix(tablePrefix);
			return this;
		}

		/**
		 * Whether to wake waiters with PostgreSQL {@code LISTEN/NOTIFY} over one
		 * connection of its own; when off, or on other databases, waiters poll with a
		 * short bounded backoff.
		 * @param notifications whether to listen for notifications
		 * @return this builder
		 */
		public Builder notifications(boolean notifications) {
			this.notifications = notifications;
			return this;
		}

		/**
		 * Open the host's {@code LISTEN} connection, and the one a waiter that gives up
		 * withdraws on without waiting for a busy pool, from this data source, one that
		 * pools nothing. Without it, a Hikari pool's URL settings open them outside the
		 * pool, an unpooled data source opens them, and any other pool lends them (the
		 * {@code LISTEN} one with a warning).
		 * @param listenDataSource the data source of the listening connection
		 * @return this builder
		 */
		public Builder listenDataSource(DataSource listenDataSource) {
			Assert.notNull(listenDataSource, "'listenDataSource' must not be null");
			this.listenDataSource = listenDataSource;
			return this;
		}

		/**
		 * Remove passed grants with nobody queued, and other rows no question needs, on
		 * the host's scheduler this often (stopped by {@link #close()}), so that such a
		 * row goes at most this long plus one clean-up's time after its instant with no
		 * caller at all. Zero runs no thread: takes clean up, at most once a second.
		 * @param cleanupInterval the interval, {@link #DEFAULT_CLEANUP_INTERVAL} by
		 * default
		 * @return this builder
		 * @throws IllegalArgumentException if the interval is negative
		 */
		public Builder cleanupInterval(Duration cleanupInterval) {
			Assert.isTrue(cleanupInterval != null && !cleanupInterval.isNegative(),
					"'cleanupInterval' must be zero or positive");
			this.cleanupInterval = cleanupInterval;
			return this;
		}

		/**
		 * Build the host, reading the database's metadata to choose its dialect.
		 * @return the host
		 * @throws LeaseHostException if the database is not one of PostgreSQL, MySQL,
		 * MariaDB and H2
		 */
		public JdbcLeaseHost build() {
			return new JdbcLeaseHost(this);
		}

	}

}
