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

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.ReentrantTakeException;
import dev.lease.ReleaseResult;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.Unavailable;
import dev.lease.host.HostArguments;
import dev.lease.host.Micros;
import dev.lease.host.Wakeups;
import dev.lease.host.Withdrawals;

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
 * resolves the stored state at the database's now (DESIGN §4) and writes back what it
 * changed; no row lock is held while anyone waits. On PostgreSQL, a take of a free key
 * with nobody queued is one statement that reads the clock with the row locked (two when
 * the key has no row yet), and a release with nobody queued is one. Waiters are rows of a
 * second table in arrival order; they are woken by PostgreSQL {@code LISTEN/NOTIFY} over
 * one connection per host, elsewhere by polling with a short bounded backoff, and on
 * every database by a release made through this same host. A released key, or a passed
 * one with nobody waiting, leaves no row behind.
 * <p>
 * The host uses connections of its own from the {@link DataSource}, never the caller's
 * transaction: a grant does not roll back with the caller's work (Non-goal 6). The tables
 * come from the schema scripts at {@link #SCHEMA_LOCATION}.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class JdbcLeaseHost implements LeaseHost, AutoCloseable {

	/**
	 * Location of the schema scripts, with Spring Boot's {@code @@platform@@}
	 * placeholder: {@code postgresql}, {@code mysql} (MySQL and MariaDB) or {@code h2}.
	 * The scripts create the tables with the {@link #DEFAULT_TABLE_PREFIX default
	 * prefix}.
	 */
	public static final String SCHEMA_LOCATION = "classpath:dev/lease/host/jdbc/schema-@@platform@@.sql";

	/**
	 * Location of the scripts that drop the tables, with the same placeholder.
	 */
	public static final String DROP_SCHEMA_LOCATION = "classpath:dev/lease/host/jdbc/schema-drop-@@platform@@.sql";

	/**
	 * Prefix of the host's two tables, {@code LEASE_KEYS} and {@code LEASE_WAITERS}.
	 */
	public static final String DEFAULT_TABLE_PREFIX = "LEASE_";

	private static final Log logger = LogFactory.getLog(JdbcLeaseHost.class);

	private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,47}");

	private static final HostArguments ARGUMENTS = HostArguments.of(Duration.ofNanos(1000),
			HostArguments.DEFAULT_MAXIMUM);

	// PostgreSQL refuses a NOTIFY payload of 8000 bytes or more.
	private static final int NOTIFY_PAYLOAD_MAXIMUM = 7999;

	private static final int ATTEMPTS = 8;

	private static final long SWEEP_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

	// How long past its bound a grant handed to a waiter is kept, at the least, for a
	// waiter that stalled (Operation 2: it did get the key).
	private static final long HANDED_GRACE_MICROS = TimeUnit.MINUTES.toMicros(1);

	private static final long FIRST_BACKOFF_MICROS = 2_000;

	private static final long MAXIMUM_BACKOFF_MICROS = 100_000;

	private final DataSource dataSource;

	private final JdbcLeaseDialect dialect;

	private final String tablePrefix;

	private final JdbcLeaseStatements statements;

	private final Wakeups<LeaseKey, Long> wakeups = new Wakeups<>();

	private final PickedUpWaiters pickedUp = new PickedUpWaiters();

	private final @Nullable PostgresNotificationListener listener;

	private final String channel;

	private final SecureRandom random = new SecureRandom();

	private final AtomicLong nextSweep = new AtomicLong(System.nanoTime());

	private final StoreInterrupts interrupts;

	/**
	 * Create a host on the given data source with the default table prefix, waking
	 * waiters with {@code LISTEN/NOTIFY} on PostgreSQL.
	 * @param dataSource the database
	 * @throws LeaseHostException if the database cannot be reached or is not supported
	 */
	public JdbcLeaseHost(DataSource dataSource) {
		this(builder(dataSource));
	}

	/**
	 * Create a host on the data source of the given template, with the default table
	 * prefix.
	 * @param jdbcTemplate a template whose data source is the database
	 * @throws LeaseHostException if the database cannot be reached or is not supported
	 */
	public JdbcLeaseHost(JdbcTemplate jdbcTemplate) {
		this(builder(dataSourceOf(jdbcTemplate)));
	}

	private JdbcLeaseHost(Builder builder) {
		this.dataSource = builder.dataSource;
		this.tablePrefix = builder.tablePrefix;
		this.dialect = detect(builder.dataSource);
		this.statements = new JdbcLeaseStatements(this.dialect, this.tablePrefix);
		this.interrupts = StoreInterrupts.of(this.dataSource, this.dialect);
		this.channel = (this.tablePrefix + "KEYS").toLowerCase(Locale.ROOT);
		this.listener = (this.dialect == JdbcLeaseDialect.POSTGRESQL && builder.notifications)
				? new PostgresNotificationListener(this.dataSource, this.channel, this.wakeups, this.pickedUp,
						this.statements.deleteWaiter)
				: null;
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
	 */
	public String platform() {
		return this.dialect.platform();
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
		if (tablePrefix == null) {
			throw new IllegalArgumentException("'tablePrefix' must not be null");
		}
		if (!IDENTIFIER.matcher(tablePrefix).matches()) {
			throw new IllegalArgumentException("'tablePrefix' must be an SQL identifier: letters, digits and"
					+ " underscores, not starting with a digit, at most 48 characters, but was '" + tablePrefix + "'");
		}
		return tablePrefix;
	}

	@Override
	public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		long durationMicros = checkArguments(key, holder, duration);
		PostgresNotificationListener listener = this.listener;
		if (listener != null) {
			if (listener.start()) {
				// Only the take that starts the listener waits for it, briefly; until it
				// listens, waiters poll.
				listener.awaitFirstListen(1000);
			}
		}
		// Subscribe before asking a question whose answer we may sleep on.
		Wakeups.Signal<Long> signal = this.wakeups.register(key);
		try {
			Object entered;
			try {
				entered = this.interrupts.givingUp(() -> enter(key, holder, durationMicros, true));
			}
			catch (StoreInterrupts.GaveUp ex) {
				// Interrupted before anything was sent: nothing stands for us.
				Thread.interrupted();
				throw new InterruptedException(ex.getMessage());
			}
			if (entered instanceof Taken taken) {
				return taken;
			}
			return await(key, holder, durationMicros, (Queued) entered, signal);
		}
		finally {
			this.wakeups.unregister(key, signal);
			sweepNowAndThen();
		}
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		long durationMicros = checkArguments(key, holder, duration);
		try {
			Object entered = enter(key, holder, durationMicros, false);
			return (entered instanceof Taken taken) ? taken : new Held();
		}
		finally {
			sweepNowAndThen();
		}
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		HostArguments.requireKeyAndHolder(key, holder);
		byte[] keyBytes = key.bytes();
		byte[] holderBytes = holder.bytes();
		// One statement when nobody is queued: the row and the clock read together.
		Object[] row = transaction("read the remaining term", key,
				(tx) -> tx.queryRow(this.statements.selectKeyAndNow, keyBytes));
		if (row == null) {
			return Optional.empty();
		}
		if (((Number) row[3]).intValue() == 0) {
			StoredKeyState state = stateOf(keyBytes, row);
			return remainingOf(state, holderBytes, state.now(((Number) row[5]).longValue()));
		}
		return transaction("read the remaining term", key, (tx) -> {
			StoredKeyState state = lockAndLoad(tx, keyBytes);
			if (state == null) {
				return Optional.empty();
			}
			long now = state.now(tx.now());
			state.resolve(now);
			return remainingOf(state, holderBytes, now);
		});
	}

	// Answered from the resolved state; nothing is written (Check 5.2).
	private static Optional<Duration> remainingOf(StoredKeyState state, byte[] holderBytes, long now) {
		if (state.isHeldBy(holderBytes) && state.expiresAt > now) {
			return Optional.of(Micros.toDuration(state.expiresAt - now));
		}
		return Optional.empty();
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		HostArguments.requireKeyAndHolder(key, holder);
		byte[] keyBytes = key.bytes();
		byte[] holderBytes = holder.bytes();
		if (!this.pickedUp.isEmpty()) {
			// Most often the row of the very grant released now, taken up a moment ago.
			removePickedUpWaiters();
		}
		if (this.dialect == JdbcLeaseDialect.POSTGRESQL && statement("release", key,
				(tx) -> tx.update(this.statements.releaseInOneStatement, keyBytes, holderBytes)) == 1) {
			return new Released();
		}
		return transaction("release", key, (tx) -> {
			StoredKeyState state = lockAndLoad(tx, keyBytes);
			if (state == null) {
				return new NotHeld();
			}
			long now = state.now(tx.now());
			state.resolve(now);
			if (!state.isHeldBy(holderBytes) || state.expiresAt <= now) {
				// Answered from the resolved state; nothing is written (Check 5.2).
				return new NotHeld();
			}
			state.handOn(now);
			save(tx, state, now);
			return new Released();
		});
	}

	private void removePickedUpWaiters() {
		try {
			statement("clean up", null, (tx) -> {
				this.pickedUp.remove((id) -> tx.update(this.statements.deleteWaiter, id));
				return null;
			});
		}
		catch (LeaseHostException ex) {
			logger.debug("Could not remove the rows of taken-up grants; they are removed later", ex);
		}
	}

	@Override
	public List<Lease> grants(int limit) {
		HostArguments.requireLimit(limit);
		return transaction("list the grants", null, (tx) -> {
			List<Lease> grants = new ArrayList<>();
			long reading = tx.now();
			byte[] after = new byte[0];
			while (grants.size() < limit) {
				List<Object[]> rows = tx.queryRows(this.statements.selectGrants, limit, (Object) after);
				for (Object[] row : rows) {
					byte[] keyBytes = (byte[]) row[0];
					after = keyBytes;
					StoredKeyState state = new StoredKeyState(keyBytes, true, (byte[]) row[1],
							((Number) row[2]).longValue(), ((Number) row[3]).longValue(),
							((Number) row[5]).longValue());
					long now = state.now(reading);
					if (((Number) row[4]).intValue() > 0) {
						loadQueue(tx, state);
					}
					state.resolve(now);
					if (state.holder != null && grants.size() < limit) {
						grants.add(new Lease(LeaseKey.of(keyBytes), LeaseHolder.of(state.holder),
								Micros.toInstant(state.expiresAt)));
					}
				}
				if (rows.size() < limit) {
					break;
				}
			}
			return grants;
		});
	}

	/**
	 * Stop the listening connection, if any. Waiters still waiting fall back to polling.
	 */
	@Override
	public void close() {
		if (this.listener != null) {
			this.listener.stop();
			if (!this.pickedUp.isEmpty()) {
				removePickedUpWaiters();
			}
		}
	}

	// Take the key if it is free; otherwise answer held, or queue the caller.
	// Answers Taken, Held or Queued.
	private Object enter(LeaseKey key, LeaseHolder holder, long durationMicros, boolean queue) {
		byte[] keyBytes = key.bytes();
		byte[] holderBytes = holder.bytes();
		String what = queue ? "take" : "try to take";
		if (this.dialect == JdbcLeaseDialect.POSTGRESQL) {
			// The first run may only create the key's row and the second take the key;
			// a row that went again meanwhile is left to the transaction below.
			for (int run = 0; run < 2; run++) {
				Object[] granted = statement(what, key,
						(tx) -> tx.queryRow(this.statements.takeInOneStatement, keyBytes, holderBytes, durationMicros));
				if (granted == null) {
					break;
				}
				if (granted[0] != null) {
					return taken(key, holder, ((Number) granted[0]).longValue());
				}
			}
		}
		return transaction(what, key, (tx) -> {
			StoredKeyState state = lockAndLoad(tx, keyBytes);
			while (state == null) {
				// The clock is read only once the row is locked: an insert can wait.
				insertKeyIfAbsent(tx, keyBytes);
				state = lockAndLoad(tx, keyBytes);
			}
			long now = state.now(tx.now());
			state.resolve(now);
			if (state.holder == null) {
				state.grantTo(holderBytes, now, durationMicros);
				save(tx, state, now);
				return taken(key, holder, state.expiresAt);
			}
			if (state.isHeldOrAwaitedBy(holderBytes, now)) {
				throw new ReentrantTakeException(key, holder);
			}
			state.dropLapsed(holderBytes, now);
			if (!queue) {
				if (state.changed()) {
					save(tx, state, now);
				}
				return new Held();
			}
			StoredWaiter waiter = new StoredWaiter(this.random.nextLong(), holderBytes, durationMicros, state.expiresAt,
					++state.arrivals);
			state.enqueue(waiter);
			save(tx, state, now);
			return new Queued(waiter.id, waiter.bound, now, state.expiresAt);
		});
	}

	private TakeResult await(LeaseKey key, LeaseHolder holder, long durationMicros, Queued entered,
			Wakeups.Signal<Long> signal) throws InterruptedException {
		Queued queued = entered;
		long backoff = FIRST_BACKOFF_MICROS;
		while (true) {
			// Sleep no longer than the standing grant's remaining term, half our own
			// duration, and the time to our bound; poll sooner without notifications.
			long sleep = Math.min(Math.min(queued.grantExpiresAt - queued.now, durationMicros / 2),
					queued.bound - queued.now) + 1_000;
			if (this.listener == null || !this.listener.isListening()) {
				sleep = Math.min(sleep, backoff);
				backoff = Math.min(backoff * 2, MAXIMUM_BACKOFF_MICROS);
			}
			try {
				signal.await(Micros.toNanos(Math.max(sleep, 1)));
			}
			catch (InterruptedException ex) {
				throw giveUp(key, holder, queued, ex);
			}
			Optional<Instant> handed = signal.handedTo(queued.id);
			if (handed.isPresent() && this.listener != null) {
				// The committed handoff named us: take it without a round trip, and leave
				// our row, which nobody else reads, to the listener or our next release.
				this.pickedUp.add(queued.id);
				return new Taken(new Lease(key, holder, handed.get()));
			}
			Object answer;
			try {
				Queued asking = queued;
				answer = this.interrupts.givingUp(() -> pickUp(key, holder, asking));
				if (answer == null) {
					answer = this.interrupts.givingUp(() -> ask(key, holder, asking, false));
				}
			}
			catch (StoreInterrupts.GaveUp ex) {
				throw giveUp(key, holder, queued, new InterruptedException(ex.getMessage()));
			}
			catch (LeaseHostException ex) {
				// A caller that gets no answer must not be handed the key later.
				Queued asking = queued;
				throw Withdrawals.failed(ex, boundNanoTime(asking), () -> ask(key, holder, asking, true));
			}
			if (answer instanceof TakeResult result) {
				return result;
			}
			queued = (Queued) answer;
		}
	}

	// An interrupted waiter withdraws at once, a grant handed to it meanwhile given back,
	// and throws InterruptedException (DESIGN §4).
	private InterruptedException giveUp(LeaseKey key, LeaseHolder holder, Queued queued,
			InterruptedException interrupt) {
		return Withdrawals.giveUp(interrupt, boundNanoTime(queued), () -> ask(key, holder, queued, true));
	}

	// The waiter's bound on this JVM's timer, from the last answer the host gave it:
	// after
	// it, no release can hand the waiter the key.
	private static long boundNanoTime(Queued queued) {
		return System.nanoTime() + Micros.toNanos(queued.bound - queued.now);
	}

	// The common case after a release handed us the key: our row holds the grant, and
	// only we remove it. Two short statements, no lock on the key.
	private @Nullable TakeResult pickUp(LeaseKey key, LeaseHolder holder, Queued queued) {
		if (this.dialect == JdbcLeaseDialect.POSTGRESQL) {
			// The grant itself was made durable by the release; losing this delete in a
			// crash only leaves the row to the clean-up, so it need not wait for a flush.
			Object[] picked = transaction("ask after a waiter", key, (tx) -> {
				tx.update(this.statements.asynchronousCommit);
				return tx.queryRow(this.statements.pickUpGrant, queued.id);
			});
			return (picked != null) ? taken(key, holder, ((Number) picked[0]).longValue()) : null;
		}
		Object[] mine = statement("ask after a waiter", key,
				(tx) -> tx.queryRow(this.statements.selectWaiter, queued.id));
		if (mine == null || mine[1] == null) {
			return null;
		}
		long grantedExpiresAt = ((Number) mine[1]).longValue();
		statement("ask after a waiter", key, (tx) -> tx.update(this.statements.deleteWaiter, queued.id));
		return taken(key, holder, grantedExpiresAt);
	}

	// "Where do I stand?": granted, queued (saving nothing), or at the bound or on
	// interrupt "withdraw me, or tell me I was granted". Answers Taken, Unavailable or
	// Queued; on interrupt a grant handed to the waiter is released at once.
	private Object ask(LeaseKey key, LeaseHolder holder, Queued queued, boolean interrupted) {
		byte[] keyBytes = key.bytes();
		return transaction(interrupted ? "withdraw a waiter" : "ask after a waiter", key, (tx) -> {
			StoredKeyState state = lockAndLoad(tx, keyBytes);
			Object[] mine = tx.queryRow(this.statements.selectWaiter, queued.id);
			long now = (state != null) ? state.now(tx.now()) : tx.now();
			long grantedExpiresAt = Long.MIN_VALUE;
			if (mine != null && mine[1] != null) {
				grantedExpiresAt = ((Number) mine[1]).longValue();
			}
			if (state != null) {
				state.resolve(now);
				StoredWaiter handed = state.handedTo(queued.id);
				if (handed != null) {
					grantedExpiresAt = handed.grantedExpiresAt;
				}
			}
			if (grantedExpiresAt != Long.MIN_VALUE) {
				if (interrupted && state != null && state.isHeldBy(holder.bytes())
						&& state.expiresAt == grantedExpiresAt) {
					// Nothing is left held by a caller who gave up.
					state.handOn(now);
				}
				if (state != null) {
					save(tx, state, now);
				}
				tx.update(this.statements.deleteWaiter, queued.id);
				return taken(key, holder, grantedExpiresAt);
			}
			if (interrupted || mine == null || now > queued.bound) {
				// Withdrawn, never carried forward (Non-goal 4).
				if (state != null) {
					state.withdraw(queued.id);
					save(tx, state, now);
				}
				if (mine != null) {
					tx.update(this.statements.deleteWaiter, queued.id);
				}
				return new Unavailable();
			}
			long grantExpiresAt = (state != null && state.holder != null) ? state.expiresAt : now;
			return new Queued(queued.id, queued.bound, now, grantExpiresAt);
		});
	}

	private @Nullable StoredKeyState lockAndLoad(Transaction tx, byte[] keyBytes) throws SQLException {
		Object[] row = tx.queryRow(this.statements.selectKeyForUpdate, keyBytes);
		if (row == null) {
			return null;
		}
		StoredKeyState state = stateOf(keyBytes, row);
		if (((Number) row[3]).intValue() > 0) {
			loadQueue(tx, state);
		}
		return state;
	}

	private static StoredKeyState stateOf(byte[] keyBytes, Object[] row) {
		byte[] holder = (byte[]) row[0];
		long expiresAt = (row[1] != null) ? ((Number) row[1]).longValue() : 0;
		return new StoredKeyState(keyBytes, true, holder, expiresAt, ((Number) row[2]).longValue(),
				((Number) row[4]).longValue());
	}

	private void loadQueue(Transaction tx, StoredKeyState state) throws SQLException {
		if (this.dialect == JdbcLeaseDialect.POSTGRESQL) {
			for (Object[] row : tx.queryRows(this.statements.selectQueueAndNow, 0, (Object) state.key)) {
				tx.clockRead(((Number) row[0]).longValue());
				if (row[1] != null) {
					state.queue.add(new StoredWaiter(((Number) row[1]).longValue(), (byte[]) row[2],
							((Number) row[3]).longValue(), ((Number) row[4]).longValue(),
							((Number) row[5]).longValue()));
				}
			}
			return;
		}
		for (Object[] row : tx.queryRows(this.statements.selectQueue, 0, (Object) state.key)) {
			state.queue.add(new StoredWaiter(((Number) row[0]).longValue(), (byte[]) row[1],
					((Number) row[2]).longValue(), ((Number) row[3]).longValue(), ((Number) row[4]).longValue()));
		}
	}

	private boolean insertKeyIfAbsent(Transaction tx, byte[] keyBytes) throws SQLException {
		try {
			return tx.update(this.statements.insertKeyIfAbsent, keyBytes) == 1;
		}
		catch (SQLException ex) {
			// H2's MERGE can meet a row inserted by a racing transaction; the statement
			// alone is undone there, and the row is now locked and read instead.
			if (this.dialect == JdbcLeaseDialect.H2 && isDuplicateKey(ex)) {
				return false;
			}
			throw ex;
		}
	}

	// Write back what the question changed: the resolved state with its own change.
	private void save(Transaction tx, StoredKeyState state, long now) throws SQLException {
		if (this.dialect == JdbcLeaseDialect.POSTGRESQL && state.added.isEmpty()) {
			saveInOneStatement(tx, state, now);
			return;
		}
		for (StoredWaiter waiter : state.dropped) {
			if (!state.added.contains(waiter)) {
				tx.update(this.statements.deleteWaiter, waiter.id);
			}
		}
		for (StoredWaiter waiter : state.handed) {
			tx.update(this.statements.handWaiter, waiter.grantedExpiresAt, waiter.id);
		}
		for (StoredWaiter waiter : state.added) {
			if (!state.dropped.contains(waiter)) {
				tx.update(this.statements.insertWaiter, waiter.id, state.key, waiter.holder, waiter.durationMicros,
						waiter.bound, waiter.arrival);
			}
		}
		if (state.isFree(now)) {
			tx.update(this.statements.deleteKey, state.key);
		}
		else {
			tx.update(this.statements.updateKey, state.holder, state.expiresAt, now, state.queue.size(), state.arrivals,
					state.key);
		}
		String payload = handoffs(tx, state);
		if (payload != null) {
			tx.queryRow(this.statements.notify, this.channel, payload);
		}
	}

	private void saveInOneStatement(Transaction tx, StoredKeyState state, long now) throws SQLException {
		long[] dropped = state.dropped.stream().mapToLong((waiter) -> waiter.id).toArray();
		long[] handedIds = state.handed.stream().mapToLong((waiter) -> waiter.id).toArray();
		long[] handedExpiresAt = state.handed.stream().mapToLong((waiter) -> waiter.grantedExpiresAt).toArray();
		boolean kept = !state.isFree(now);
		String payload = handoffs(tx, state);
		tx.queryRows(this.statements.saveInOneStatement, 0, dropped, handedIds, handedExpiresAt, state.holder,
				state.expiresAt, now, state.queue.size(), state.arrivals, state.key, kept, state.key, kept,
				this.channel, (payload != null) ? payload : "", payload != null);
	}

	// Note the grants handed to waiters, to wake this host's waiters after the commit,
	// and answer the payload of the NOTIFY that wakes the other hosts' waiters, or null.
	private @Nullable String handoffs(Transaction tx, StoredKeyState state) {
		if (state.handed.isEmpty()) {
			return null;
		}
		List<Wakeups.Handoff<Long>> handoffs = new ArrayList<>();
		StringBuilder payload = new StringBuilder(HexFormat.of().formatHex(state.key));
		for (StoredWaiter waiter : state.handed) {
			handoffs.add(new Wakeups.Handoff<>(waiter.id, Micros.toInstant(waiter.grantedExpiresAt)));
			payload.append(' ').append(waiter.id).append(':').append(waiter.grantedExpiresAt);
		}
		tx.handoffs = handoffs;
		if (this.listener == null) {
			return null;
		}
		// Delivered only once this transaction commits: the waiter it names may answer
		// Taken from it without asking. Past NOTIFY's size limit the key alone wakes the
		// waiters, and they ask.
		return (payload.length() <= NOTIFY_PAYLOAD_MAXIMUM) ? payload.toString() : HexFormat.of().formatHex(state.key);
	}

	// Garbage collection as part of normal operations, at most once a second per host:
	// rows of passed grants with nobody queued, grants handed to waiters that can no
	// longer come back for them, and keys whose passed grant still has a queue behind it.
	private void sweepNowAndThen() {
		long due = this.nextSweep.get();
		long nanos = System.nanoTime();
		if (nanos - due < 0 || !this.nextSweep.compareAndSet(due, nanos + SWEEP_INTERVAL_NANOS)) {
			return;
		}
		try {
			List<byte[]> keys = transaction("clean up", null, (tx) -> {
				tx.update(this.statements.deleteFreeKeys);
				tx.update(this.statements.deleteStaleHandedWaiters, HANDED_GRACE_MICROS, HANDED_GRACE_MICROS);
				List<byte[]> found = new ArrayList<>();
				for (Object[] row : tx.queryRows(this.statements.selectKeysToResolve, 16)) {
					found.add((byte[]) row[0]);
				}
				return found;
			});
			for (byte[] keyBytes : keys) {
				transaction("clean up", LeaseKey.of(keyBytes), (tx) -> {
					StoredKeyState state = lockAndLoad(tx, keyBytes);
					if (state != null) {
						long now = state.now(tx.now());
						state.resolve(now);
						save(tx, state, now);
					}
					return state;
				});
			}
		}
		catch (LeaseHostException ex) {
			logger.debug("Lease clean-up failed; it runs again with a later question", ex);
		}
	}

	private <T> T transaction(String what, @Nullable LeaseKey key, Transaction.Work<T> work) {
		return run(what, key, false, work);
	}

	private <T> T statement(String what, @Nullable LeaseKey key, Transaction.Work<T> work) {
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
					Transaction tx = new Transaction(this.statements.selectNow, this.dialect == JdbcLeaseDialect.MYSQL);
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

	private static TakeResult taken(LeaseKey key, LeaseHolder holder, long expiresAt) {
		return new Taken(new Lease(key, holder, Micros.toInstant(expiresAt)));
	}

	private static boolean isDuplicateKey(SQLException ex) {
		return ex.getSQLState() != null && ex.getSQLState().startsWith("23");
	}

	private static JdbcLeaseDialect detect(DataSource dataSource) {
		try (Connection connection = dataSource.getConnection()) {
			return JdbcLeaseDialect.of(connection.getMetaData());
		}
		catch (SQLException ex) {
			throw new LeaseHostException("Could not read the database's metadata to choose a lease dialect", ex);
		}
	}

	private static DataSource dataSourceOf(JdbcTemplate jdbcTemplate) {
		if (jdbcTemplate == null || jdbcTemplate.getDataSource() == null) {
			throw new IllegalArgumentException("'jdbcTemplate' must not be null and must have a DataSource");
		}
		return jdbcTemplate.getDataSource();
	}

	private static long checkArguments(LeaseKey key, LeaseHolder holder, Duration duration) {
		return Micros.of(ARGUMENTS.requireTake(key, holder, duration));
	}

	/**
	 * A waiter standing in the queue: its row, its bound, and the last answer it had.
	 */
	private record Queued(long id, long bound, long now, long grantExpiresAt) {

	}

	/**
	 * Builds a {@link JdbcLeaseHost}.
	 */
	public static final class Builder {

		private final DataSource dataSource;

		private String tablePrefix = DEFAULT_TABLE_PREFIX;

		private boolean notifications = true;

		private Builder(DataSource dataSource) {
			if (dataSource == null) {
				throw new IllegalArgumentException("'dataSource' must not be null");
			}
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
		 * connection of the data source; when off, or on other databases, waiters poll
		 * with a short bounded backoff.
		 * @param notifications whether to listen for notifications
		 * @return this builder
		 */
		public Builder notifications(boolean notifications) {
			this.notifications = notifications;
			return this;
		}

		/**
		 * Build the host, reading the database's metadata to choose its dialect.
		 * @return the host
		 * @throws LeaseHostException if the database cannot be reached, or is not one of
		 * PostgreSQL, MySQL, MariaDB and H2
		 */
		public JdbcLeaseHost build() {
			return new JdbcLeaseHost(this);
		}

	}

}
