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
import java.util.stream.LongStream;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseKey;
import dev.lease.host.HandedGrant;
import dev.lease.host.KeyModel;
import dev.lease.host.QueuedWaiter;
import dev.lease.host.TakeAnswer.Granted;
import dev.lease.host.TakeAnswer.Queued;

/**
 * The store on PostgreSQL, which takes the common cases in fewer round trips: a take of a
 * free key with nobody queued is one statement that reads the clock with the key locked,
 * whether or not it has a row, a release with nobody queued is one, the queue is loaded
 * with a reading of the clock, a state that queued nobody new is saved and notified in
 * one statement, and a waiter picks up its grant in one.
 *
 * @author Lease contributors
 */
final class PostgresqlLeaseStore extends OneStatementLeaseStore {

	PostgresqlLeaseStore(JdbcLeaseCalls calls, JdbcLeaseStatements statements, JdbcLeaseDialect dialect,
			PickedUpWaiters pickedUp, String channel, boolean notifying) {
		super(calls, statements, dialect, pickedUp, channel, notifying, statements.releaseInOneStatement);
	}

	@Override
	OptionalLong takeFreeKey(String what, LeaseKey key, long durationMicros, byte[] holderBytes) {
		byte[] keyBytes = key.bytes();
		Long granted = this.calls.statement(what, key, (tx) -> tx.queryRow(this.statements.takeInOneStatement,
				KeyRow.NUMBER, holderBytes, durationMicros, keyBytes, durationMicros));
		return (granted != null) ? OptionalLong.of(granted) : OptionalLong.empty();
	}

	@Override
	@Nullable Granted pickUp(LeaseKey key, Queued queued) {
		// The grant itself was made durable by the release; losing this delete in a crash
		// only leaves the row to the clean-up, so it need not wait for a flush.
		Long picked = this.calls.transaction("ask after a waiter", key, (tx) -> {
			tx.update(this.statements.asynchronousCommit);
			return tx.queryRow(this.statements.pickUpGrant, KeyRow.NUMBER, queued.waiterId());
		});
		return (picked != null) ? new Granted(picked) : null;
	}

	@Override
	void save(Transaction tx, KeyModel state, long now) {
		if (!state.added().isEmpty()) {
			super.save(tx, state, now);
			return;
		}
		// The rows of grants taken up from a notification go with the dropped waiters.
		long[] dropped = LongStream
			.concat(state.dropped().stream().mapToLong(QueuedWaiter::id),
					tx.pickedUpRows.stream().mapToLong(Long::longValue))
			.toArray();
		long[] handedIds = state.handed().stream().mapToLong((handoff) -> handoff.waiter().id()).toArray();
		long[] handedExpiresAt = state.handed().stream().mapToLong(HandedGrant::expiresAt).toArray();
		boolean kept = !state.isFree(now);
		byte[] keyBytes = state.key().bytes();
		String payload = WrittenHandoffs.note(tx, state, this.notifying, this.calls);
		tx.select(this.statements.saveInOneStatement, dropped, handedIds, handedExpiresAt, KeyRow.holderBytes(state),
				state.expiresAt(), now, state.queued(), state.arrivals(), state.grantedAt(), keyBytes, kept, keyBytes,
				kept, this.channel, (payload != null) ? payload : "", payload != null);
	}

}
