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

import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The SQL the JDBC host runs, with one table-name placeholder, {@code %PREFIX%}, and
 * {@code %NOW%} for the reading of the database clock ({@link DatabaseClock}). DDL lives
 * only in the schema scripts beside this class.
 *
 * @author Lease contributors
 */
final class JdbcLeaseStatements {

	final String selectKeyForUpdate;

	final String selectKeyAndNow;

	final String selectNow;

	final String selectWaiter;

	final String lockWaiter;

	final String insertKeyIfAbsent;

	final String updateKey;

	final String deleteKey;

	final String insertWaiter;

	final String handWaiter;

	final String deleteWaiter;

	final String selectGrants;

	final String deleteFreeKeys;

	final String deleteStaleHandedWaiters;

	final String selectKeysToResolve;

	final String takeInOneStatement;

	final String releaseInOneStatement;

	final String notify = "SELECT PG_NOTIFY(?, ?)";

	final String pickUpGrant;

	final String asynchronousCommit = "SET LOCAL SYNCHRONOUS_COMMIT TO OFF";

	final String saveInOneStatement;

	final String mysqlTakeInOneStatement;

	final String mysqlReleaseInOneStatement;

	// MySQL and MariaDB only: whether SYSDATE(6) is read where it is evaluated, as it is
	// unless the server was started with --sysdate-is-now: a positive time after a
	// pause.
	final String mysqlClockProbe = "SELECT SLEEP(0.002), TIMESTAMPDIFF(MICROSECOND, NOW(6), SYSDATE(6))";

	// MySQL and MariaDB only: the one-statement take's answer as the session keeps it,
	// for when the server sent none with the update count.
	final String mysqlLastInsertId = "SELECT LAST_INSERT_ID()";

	final String mysqlHandAndKeep;

	final String selectQueuePage;

	final String selectQueuePageAndNow;

	final String selectQueuedWaiter;

	final String selectWaitersOfHolder;

	final String selectHandedWaiters;

	final String selectWaiting;

	JdbcLeaseStatements(JdbcLeaseDialect dialect, String tablePrefix) {
		UnaryOperator<String> sql = (template) -> sql(template, dialect, tablePrefix);
		UnaryOperator<String> mysql = (template) -> mysql(template, dialect, tablePrefix);
		// On PostgreSQL the key's lock comes first (KEY_LOCKED).
		this.selectKeyForUpdate = sql.apply("""
				SELECT HOLDER, EXPIRES_AT, LATEST, QUEUED, ARRIVALS, GRANTED_AT FROM %PREFIX%KEYS
				WHERE LEASE_KEY = %KEY% FOR UPDATE""");
		this.selectKeyAndNow = sql.apply("""
				SELECT HOLDER, EXPIRES_AT, LATEST, QUEUED, ARRIVALS, GRANTED_AT, %NOW% FROM %PREFIX%KEYS
				WHERE LEASE_KEY = ?""");
		this.selectNow = sql.apply("SELECT %NOW%");
		this.selectWaiter = sql.apply("""
				SELECT BOUND, GRANTED_EXPIRES_AT FROM %PREFIX%WAITERS WHERE WAITER_ID = ?""");
		// A waiter's own row read with the key's row locked: a locking read waits for
		// the transaction that handed it the key to end and reads what it wrote, where a
		// plain read may not see it yet on H2 though the key's row shows the handoff.
		this.lockWaiter = sql.apply("""
				SELECT BOUND, GRANTED_EXPIRES_AT FROM %PREFIX%WAITERS WHERE WAITER_ID = ? FOR UPDATE""");
		this.insertKeyIfAbsent = sql.apply(dialect.insertKeyIfAbsent());
		this.updateKey = sql.apply("""
				UPDATE %PREFIX%KEYS SET HOLDER = ?, EXPIRES_AT = ?, LATEST = ?, QUEUED = ?, ARRIVALS = ?,
				GRANTED_AT = ? WHERE LEASE_KEY = ?""");
		this.deleteKey = sql.apply("DELETE FROM %PREFIX%KEYS WHERE LEASE_KEY = ?");
		this.insertWaiter = sql.apply("""
				INSERT INTO %PREFIX%WAITERS (WAITER_ID, LEASE_KEY, HOLDER, DURATION_MICROS, BOUND, ARRIVAL, ARRIVED_AT)
				VALUES (?, ?, ?, ?, ?, ?, ?)""");
		this.handWaiter = sql.apply("UPDATE %PREFIX%WAITERS SET GRANTED_EXPIRES_AT = ? WHERE WAITER_ID = ?");
		this.deleteWaiter = sql.apply("DELETE FROM %PREFIX%WAITERS WHERE WAITER_ID = ?");
		// A page of keys with a holder after the given key, the limit the second
		// parameter, and one reading of the clock: on a row of its own with no key when
		// the page is empty. The limit applies to the key table alone, so that the page
		// costs its own rows, in key order. A passed grant with nobody queued reads as
		// free and takes no place in the page: it is passed at the statement's start,
		// which is no later than the page's reading.
		this.selectGrants = sql.apply("""
				SELECT C.READING, K.LEASE_KEY, K.HOLDER, K.EXPIRES_AT, K.LATEST, K.QUEUED, K.ARRIVALS, K.GRANTED_AT
				FROM (SELECT %NOW% AS READING) C LEFT JOIN (SELECT LEASE_KEY, HOLDER, EXPIRES_AT, LATEST, QUEUED,
				ARRIVALS, GRANTED_AT FROM %PREFIX%KEYS WHERE HOLDER IS NOT NULL AND LEASE_KEY > ?
				AND (QUEUED > 0 OR EXPIRES_AT > %START%) ORDER BY LEASE_KEY LIMIT ?) K
				ON 1 = 1 ORDER BY K.LEASE_KEY""");
		// How many wait for a key, for operators: its waiters not handed the key whose
		// bound has not passed at the key's now, with the key's row and one reading of
		// the clock; a row with no key when the key has none.
		this.selectWaiting = sql.apply("""
				SELECT C.READING, K.HOLDER, K.EXPIRES_AT, K.LATEST, K.QUEUED, K.ARRIVALS,
				(SELECT COUNT(*) FROM %PREFIX%WAITERS W WHERE W.LEASE_KEY = K.LEASE_KEY
				AND W.GRANTED_EXPIRES_AT IS NULL AND W.BOUND >= GREATEST(K.LATEST, C.READING)),
				(SELECT MIN(W.ARRIVED_AT) FROM %PREFIX%WAITERS W WHERE W.LEASE_KEY = K.LEASE_KEY
				AND W.GRANTED_EXPIRES_AT IS NULL AND W.BOUND >= GREATEST(K.LATEST, C.READING))
				FROM (SELECT %NOW% AS READING) C LEFT JOIN %PREFIX%KEYS K ON K.LEASE_KEY = ?""");
		// Removing a passed grant with nobody queued changes no answer: it reads as free.
		// On PostgreSQL a row goes only under its key's lock (KEY_LOCK), taken only for a
		// row that qualifies (CASE fixes the order); a key whose lock is taken is left to
		// the next round rather than waited for.
		this.deleteFreeKeys = sql.apply(dialect.hasOneStatementPaths() ? """
				DELETE FROM %PREFIX%KEYS WHERE CASE WHEN QUEUED = 0 AND (HOLDER IS NULL OR EXPIRES_AT <= %NOW%)
				THEN PG_TRY_ADVISORY_XACT_LOCK(%KEY_LOCK%) ELSE FALSE END""" : """
				DELETE FROM %PREFIX%KEYS WHERE QUEUED = 0 AND (HOLDER IS NULL OR EXPIRES_AT <= %NOW%)""");
		// A grant handed to a waiter is kept for it until it asks, even past its instant.
		// A waiter asks at its bound at the latest, so the row goes only once the later
		// of its instant and its bound lies further back than its duration and than the
		// grace, the first parameter and the second: a waiter stalled that long is gone.
		this.deleteStaleHandedWaiters = sql.apply("""
				DELETE FROM %PREFIX%WAITERS
				WHERE GRANTED_EXPIRES_AT IS NOT NULL AND GRANTED_EXPIRES_AT < %NOW% - ?
				AND GREATEST(GRANTED_EXPIRES_AT, BOUND) + GREATEST(DURATION_MICROS, ?) < %NOW%""");
		this.selectKeysToResolve = sql.apply("""
				SELECT LEASE_KEY FROM %PREFIX%KEYS WHERE QUEUED > 0 AND EXPIRES_AT <= %NOW%""");
		// PostgreSQL only: take a free key with nobody queued, in one statement, whether
		// or not it has a row, answering the grant's instant, or no row when the key is
		// not free. The key's lock is taken first, then the clock read: on the insert
		// path nobody can have inserted or removed the key's row in between, and the
		// conflict path reads the clock again in SET and WHERE, which PostgreSQL
		// evaluates once the row is locked, so the grant is dated after any other. SET
		// reads it once for the grant's instant, its start and the latest, so that the
		// start is exactly the instant less the duration.
		this.takeInOneStatement = sql.apply("""
				INSERT INTO %PREFIX%KEYS AS K (LEASE_KEY, HOLDER, EXPIRES_AT, LATEST, QUEUED, ARRIVALS, GRANTED_AT)
				SELECT C.KEY, ?, C.READING + ?, C.READING, 0, 0, C.READING
				FROM (SELECT L.KEY, %NOW% AS READING FROM (%LOCKING%) L) C
				ON CONFLICT (LEASE_KEY) DO UPDATE SET HOLDER = EXCLUDED.HOLDER, ARRIVALS = 0,
				(EXPIRES_AT, LATEST, GRANTED_AT) = (SELECT N.AT + ?, N.AT, N.AT
				FROM (SELECT GREATEST(K.LATEST, %NOW%) AS AT) N)
				WHERE K.QUEUED = 0 AND (K.HOLDER IS NULL OR K.EXPIRES_AT <= GREATEST(K.LATEST, %NOW%))
				RETURNING K.EXPIRES_AT""");
		// PostgreSQL only: release by the holder of a standing grant with nobody queued,
		// under the key's lock.
		this.releaseInOneStatement = sql.apply("""
				DELETE FROM %PREFIX%KEYS WHERE LEASE_KEY = %KEY% AND HOLDER = ? AND QUEUED = 0
				AND EXPIRES_AT > GREATEST(LATEST, %NOW%)""");
		// PostgreSQL only: a waiter takes the grant a release handed it, in one
		// statement.
		this.pickUpGrant = sql.apply("""
				DELETE FROM %PREFIX%WAITERS WHERE WAITER_ID = ? AND GRANTED_EXPIRES_AT IS NOT NULL
				RETURNING GRANTED_EXPIRES_AT""");
		// PostgreSQL only, with the key's row locked: write back a resolved state that
		// queued nobody new (waiters dropped, grants handed, the key kept or deleted) and
		// notify, in one round trip.
		this.saveInOneStatement = sql.apply("""
				WITH DROPPED AS (DELETE FROM %PREFIX%WAITERS WHERE WAITER_ID = ANY(?)),
				HANDED AS (UPDATE %PREFIX%WAITERS W SET GRANTED_EXPIRES_AT = H.EXPIRES_AT
				FROM UNNEST(?, ?) AS H(WAITER_ID, EXPIRES_AT) WHERE W.WAITER_ID = H.WAITER_ID),
				KEPT AS (UPDATE %PREFIX%KEYS SET HOLDER = ?, EXPIRES_AT = ?, LATEST = ?, QUEUED = ?, ARRIVALS = ?,
				GRANTED_AT = ? WHERE LEASE_KEY = ? AND ?),
				GONE AS (DELETE FROM %PREFIX%KEYS WHERE LEASE_KEY = ? AND NOT ?)
				SELECT PG_NOTIFY(?, ?) WHERE ?""");
		this.selectQueuePage = sql.apply(QUEUE_PAGE);
		// With the key's row locked, the first page and a reading of the clock in one
		// round trip (PostgreSQL, MySQL and MariaDB).
		this.selectQueuePageAndNow = sql.apply("SELECT C.READING, W.* FROM (SELECT %NOW% AS READING) C LEFT JOIN ("
				+ QUEUE_PAGE + ") W ON TRUE ORDER BY W.ARRIVAL");
		this.selectQueuedWaiter = sql.apply("""
				SELECT WAITER_ID, HOLDER, DURATION_MICROS, BOUND, ARRIVAL, ARRIVED_AT FROM %PREFIX%WAITERS
				WHERE WAITER_ID = ? AND LEASE_KEY = ? AND GRANTED_EXPIRES_AT IS NULL""");
		this.selectWaitersOfHolder = sql.apply("""
				SELECT WAITER_ID, HOLDER, DURATION_MICROS, BOUND, ARRIVAL, ARRIVED_AT FROM %PREFIX%WAITERS
				WHERE LEASE_KEY = ? AND HOLDER = ? AND GRANTED_EXPIRES_AT IS NULL ORDER BY ARRIVAL""");
		// The grants handed to a key's waiters and not yet taken up, and the waiter at
		// the
		// head of its queue with the standing grant's instant: the poller of a key wakes
		// the ones waiting in this JVM, and tells the head when to ask, though the grant
		// changed hands on another host and no notification said so. The key as the
		// first three parameters.
		this.selectHandedWaiters = sql.apply("""
				SELECT 0 AS IS_NEXT, WAITER_ID, GRANTED_EXPIRES_AT FROM %PREFIX%WAITERS
				WHERE LEASE_KEY = ? AND GRANTED_EXPIRES_AT IS NOT NULL
				UNION ALL
				SELECT 1, H.WAITER_ID, K.EXPIRES_AT FROM %PREFIX%KEYS K, (SELECT WAITER_ID FROM %PREFIX%WAITERS
				WHERE LEASE_KEY = ? AND GRANTED_EXPIRES_AT IS NULL ORDER BY ARRIVAL LIMIT 1) H
				WHERE K.LEASE_KEY = ? AND K.HOLDER IS NOT NULL""");
		// MySQL and MariaDB only: take a free key with nobody queued, in one statement.
		// The first row only makes sure the key's row exists (an empty row grants
		// nothing), so the second always meets it, locked by this statement, and decides
		// on the conflict path, where the clock is read after the lock. LAST_INSERT_ID
		// carries the decision from the first assignment to the others, whatever the
		// SQL mode's order of assignment, and to the client (with the update count, or,
		// when a trigger keeps the server from sending it, read back from the session):
		// 0 while undecided (reset in the first row's values), 1 when the key is not
		// free, else the grant's instant, whose start is that instant less the duration.
		// Assignments after the first read no column that an earlier one assigns.
		this.mysqlTakeInOneStatement = mysql.apply("""
				INSERT INTO %PREFIX%KEYS (LEASE_KEY, LATEST, QUEUED, ARRIVALS)
				VALUES (?, LAST_INSERT_ID(0), 0, 0), (?, 0, 0, 0)
				ON DUPLICATE KEY UPDATE EXPIRES_AT = IF(LAST_INSERT_ID() <> 0, EXPIRES_AT,
				IF(QUEUED = 0 AND (HOLDER IS NULL OR EXPIRES_AT <= GREATEST(LATEST, %READING%)) AND %READING_TRUSTED%,
				LAST_INSERT_ID(GREATEST(LATEST, %READING%) + ?), IF(LAST_INSERT_ID(1), EXPIRES_AT, EXPIRES_AT))),
				HOLDER = IF(LAST_INSERT_ID() > 1, ?, HOLDER),
				LATEST = IF(LAST_INSERT_ID() > 1, LAST_INSERT_ID() - ?, LATEST),
				GRANTED_AT = IF(LAST_INSERT_ID() > 1, LAST_INSERT_ID() - ?, GRANTED_AT),
				ARRIVALS = IF(LAST_INSERT_ID() > 1, 0, ARRIVALS)""");
		// MySQL and MariaDB only: release by the holder of a standing grant with nobody
		// queued, the clock read once the row is locked.
		this.mysqlReleaseInOneStatement = mysql.apply("""
				DELETE FROM %PREFIX%KEYS WHERE LEASE_KEY = ? AND HOLDER = ? AND QUEUED = 0
				AND EXPIRES_AT > GREATEST(LATEST, %READING%) AND %READING_TRUSTED%""");
		// MySQL and MariaDB only, with the key's row locked: hand the key to one waiter
		// and write the key's row, in one statement. Both rows exist and both change, so
		// it counts two rows, or none when the waiter's row is gone.
		this.mysqlHandAndKeep = sql.apply("""
				UPDATE %PREFIX%KEYS K, %PREFIX%WAITERS W SET W.GRANTED_EXPIRES_AT = ?, K.HOLDER = ?, K.EXPIRES_AT = ?,
				K.LATEST = ?, K.QUEUED = ?, K.ARRIVALS = ?, K.GRANTED_AT = ?
				WHERE K.LEASE_KEY = ? AND W.WAITER_ID = ?""");
	}

	// MySQL and MariaDB read UTC_TIMESTAMP(6) once, at the statement's start, which a
	// wait for a row lock can leave stale; SYSDATE(6) is read where it is evaluated,
	// but in the session's time zone. The reading after a lock is the start's UTC
	// reading plus the time since the start measured in that zone: exact unless the
	// zone's offset changed while the statement ran, which shows as a time since the
	// start below zero or above a minute (a daylight saving change moves it by 30
	// minutes at least), and then no statement trusts it.
	private static String mysql(String template, JdbcLeaseDialect dialect, String tablePrefix) {
		String elapsed = "TIMESTAMPDIFF(MICROSECOND, NOW(6), SYSDATE(6))";
		return sql(template.replace("%READING%", "(" + dialect.clock().expression() + " + " + elapsed + ")")
			.replace("%READING_TRUSTED%", elapsed + " BETWEEN 0 AND 60000000"), dialect, tablePrefix);
	}

	// The queue is read from its head a page at a time, never whole (issue 16): the
	// waiters after the given arrival, the page's size the last parameter.
	private static final String QUEUE_PAGE = """
			SELECT WAITER_ID, HOLDER, DURATION_MICROS, BOUND, ARRIVAL, ARRIVED_AT FROM %PREFIX%WAITERS
			WHERE LEASE_KEY = ? AND GRANTED_EXPIRES_AT IS NULL AND ARRIVAL > ? ORDER BY ARRIVAL LIMIT ?""";

	// PostgreSQL: the key's lock (KEY_LOCK), a transaction-scoped advisory lock taken
	// before the key's row is read, inserted or removed, by every statement that may
	// insert or remove a key's row or date a grant. A take that finds no row thus reads
	// the clock with the key locked as surely as one that locks the row: no row can come
	// or go, and no grant be made, until it commits. The lock is always taken before the
	// row's, so the two cannot deadlock. It is the two-integer form, whose space is apart
	// from the single-bigint one applications most often use: the first number is the
	// table prefix's (keyLockClass), so that two prefixes never wait for each other, the
	// second the key's hash. It is waited for at most KEY_LOCK_WAIT (lock_timeout, local
	// to the statement's transaction, so also bounding the row locks after it): the host
	// holds it for a few statements only, and a session that holds it longer is not a
	// question of the host (JdbcLeaseCalls answers a failure of the store).
	static final String KEY_LOCK_OBJECT = "CAST(HASHTEXTEXTENDED(ENCODE(LEASE_KEY, 'hex'), 7811886091) >> 32 AS INTEGER)";

	/** How long a statement waits for the key's lock, in milliseconds. */
	static final int KEY_LOCK_WAIT_MILLIS = 2000;

	private static final String KEY_LOCK = "%KEY_LOCK_CLASS%, " + KEY_LOCK_OBJECT;

	// The key, the parameter, once its lock is taken: as an initial plan its value is
	// computed before the statement reads any row. CASE sets the wait's bound first.
	private static final String LOCKING = "SELECT P.LEASE_KEY AS KEY, CASE WHEN SET_CONFIG('lock_timeout', '"
			+ KEY_LOCK_WAIT_MILLIS + "ms', TRUE) IS NOT NULL THEN PG_ADVISORY_XACT_LOCK(" + KEY_LOCK
			+ ") END AS LOCKED FROM (SELECT CAST(? AS BYTEA) AS LEASE_KEY) P";

	// The first number of the key's lock: the table prefix's, as PostgreSQL folds an
	// unquoted name, so that each prefix's keys lock apart from every other's.
	static int keyLockClass(String tablePrefix) {
		return ("lease:" + tablePrefix.toLowerCase(Locale.ROOT)).hashCode();
	}

	private static String sql(String template, JdbcLeaseDialect dialect, String tablePrefix) {
		return template
			.replace("%KEY%", dialect.hasOneStatementPaths() ? "(SELECT L.KEY FROM (" + LOCKING + ") L)" : "?")
			.replace("%LOCKING%", LOCKING)
			.replace("%KEY_LOCK%", KEY_LOCK)
			.replace("%KEY_LOCK_CLASS%", Integer.toString(keyLockClass(tablePrefix)))
			.replace("%PREFIX%", tablePrefix)
			.replace("%NOW%", dialect.clock().expression())
			.replace("%START%", dialect.statementStart());
	}

}
