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

import java.util.OptionalLong;

import dev.lease.LeaseKey;
import dev.lease.host.HandedGrant;
import dev.lease.host.KeyModel;

/**
 * The store on MySQL and MariaDB, which takes the common cases in one round trip each, in
 * auto-commit: a take of a free key with nobody queued (whether or not the key has a row)
 * and a release with nobody queued, each reading the clock once the key's row is locked;
 * everything else is the transaction of {@link JdbcLeaseStore}, and a read of the
 * remaining term is one statement on every database. The take's answer travels as
 * {@code LAST_INSERT_ID}; when a trigger on the table keeps the server from sending it,
 * it is read in a second statement on the same connection. A release that hands the key
 * to a waiter reads the queue's head with the clock, and writes the waiter and the key in
 * one statement.
 *
 * @author Lease contributors
 */
final class MysqlLeaseStore extends OneStatementLeaseStore {

	// The answer of the one-statement take when the key is not free: the transaction
	// decides. Any larger answer is the grant's instant.
	private static final long NOT_FREE = 1;

	MysqlLeaseStore(JdbcLeaseCalls calls, JdbcLeaseStatements statements, JdbcLeaseDialect dialect,
			PickedUpWaiters pickedUp, String channel, boolean notifying) {
		super(calls, statements, dialect, pickedUp, channel, notifying, statements.mysqlReleaseInOneStatement);
	}

	// Whether the server reads SYSDATE(6) where it is evaluated, as the one-statement
	// paths need; a server started with --sysdate-is-now does not, and gets the
	// transactions only.
	static boolean readsClockWhereEvaluated(JdbcLeaseCalls calls, JdbcLeaseStatements statements) {
		Long elapsed = calls.statement("read the clock", null,
				(tx) -> tx.queryRow(statements.mysqlClockProbe, (resultSet, rowNumber) -> resultSet.getLong(2)));
		return elapsed != null && elapsed > 0;
	}

	@Override
	OptionalLong takeFreeKey(String what, LeaseKey key, long durationMicros, byte[] holderBytes) {
		byte[] keyBytes = key.bytes();
		OptionalLong answer = this.calls.statement(what, key, (tx) -> {
			OptionalLong sent = tx.updateAnsweringKey(this.statements.mysqlTakeInOneStatement, keyBytes, keyBytes,
					durationMicros, holderBytes, durationMicros, durationMicros);
			if (sent.isPresent()) {
				return sent;
			}
			// The statement always leaves an answer of 1 or more, but a trigger on the
			// table (as online schema change tools add) keeps the server from sending it:
			// the session still holds it, since a trigger's own changes to
			// LAST_INSERT_ID are undone when it ends.
			Long kept = tx.queryRow(this.statements.mysqlLastInsertId, (resultSet, rowNumber) -> resultSet.getLong(1));
			return (kept != null) ? OptionalLong.of(kept) : OptionalLong.empty();
		});
		return (answer.isPresent() && answer.getAsLong() > NOT_FREE) ? answer : OptionalLong.empty();
	}

	@Override
	void save(Transaction tx, KeyModel state, long now) {
		if (!state.added().isEmpty() || state.handed().size() != 1 || state.isFree(now)) {
			super.save(tx, state, now);
			return;
		}
		deleteDropped(tx, state);
		HandedGrant handed = state.handed().get(0);
		byte[] keyBytes = state.key().bytes();
		byte[] holderBytes = KeyRow.holderBytes(state);
		int rows = tx.update(this.statements.mysqlHandAndKeep, handed.expiresAt(), holderBytes, state.expiresAt(), now,
				state.queued(), state.arrivals(), state.grantedAt(), keyBytes, handed.waiter().id());
		if (rows == 0) {
			// The waiter's row is gone, which the key's lock should rule out: the key is
			// written all the same, as the transaction writes it.
			tx.update(this.statements.updateKey, holderBytes, state.expiresAt(), now, state.queued(), state.arrivals(),
					state.grantedAt(), keyBytes);
		}
		// Notes the handoff, to wake this host's waiter after the commit.
		WrittenHandoffs.note(tx, state, this.notifying, this.calls);
	}

}
