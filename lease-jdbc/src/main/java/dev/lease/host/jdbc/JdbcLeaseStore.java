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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.host.HandedGrant;
import dev.lease.host.KeyModel;
import dev.lease.host.Micros;
import dev.lease.host.QueuedWaiter;
import dev.lease.host.TakeAnswer;
import dev.lease.host.TakeAnswer.Granted;
import dev.lease.host.TakeAnswer.Queued;
import dev.lease.host.WaiterQueue;

/**
 * The JDBC host's reads and writes. Each question is one short transaction under READ
 * COMMITTED that locks the key's row, resolves the stored state at the database's now
 * (Host semantics) and writes back what it changed; no row lock is held while anyone
 * waits. A database with faster paths for the common cases overrides the hooks
 * ({@link PostgresqlLeaseStore}, {@link MysqlLeaseStore}); every hook answers exactly
 * what the transaction would.
 *
 * @author Lease contributors
 */
class JdbcLeaseStore {

	final JdbcLeaseCalls calls;

	final JdbcLeaseStatements statements;

	private final JdbcLeaseDialect dialect;

	private final PickedUpWaiters pickedUp;

	final String channel;

	// Whether the host notifies other hosts of its handoffs (WrittenHandoffs).
	final boolean notifying;

	JdbcLeaseStore(JdbcLeaseCalls calls, JdbcLeaseStatements statements, JdbcLeaseDialect dialect,
			PickedUpWaiters pickedUp, String channel, boolean notifying) {
		this.calls = calls;
		this.statements = statements;
		this.dialect = dialect;
		this.pickedUp = pickedUp;
		this.channel = channel;
		this.notifying = notifying;
	}

	static JdbcLeaseStore of(JdbcLeaseCalls calls, JdbcLeaseStatements statements, JdbcLeaseDialect dialect,
			PickedUpWaiters pickedUp, String channel, boolean notifying) {
		if (dialect.hasOneStatementPaths()) {
			return new PostgresqlLeaseStore(calls, statements, dialect, pickedUp, channel, notifying);
		}
		if (dialect == JdbcLeaseDialect.MYSQL && MysqlLeaseStore.readsClockWhereEvaluated(calls, statements)) {
			return new MysqlLeaseStore(calls, statements, dialect, pickedUp, channel, notifying);
		}
		return new JdbcLeaseStore(calls, statements, dialect, pickedUp, channel, notifying);
	}

	// Take the key if it is free; otherwise refuse, or queue the caller under an id it
	// chose, so that it could register for its wake-up under that id before asking.
	final TakeAnswer enter(LeaseKey key, LeaseHolder holder, long durationMicros, boolean queue,
			LongSupplier waiterIds) {
		String what = queue ? "take" : "try to take";
		OptionalLong granted = takeFreeKey(what, key, durationMicros, holder.bytes());
		if (granted.isPresent()) {
			return new Granted(granted.getAsLong());
		}
		return this.calls.transaction(what, key, (tx) -> {
			KeyModel state = lockAndLoadOrInsert(tx, key);
			long now = state.now(tx.now());
			TakeAnswer answer = state.take(holder, durationMicros, now, queue, waiterIds);
			if (!(answer instanceof TakeAnswer.Refused) || state.changed()) {
				save(tx, state, now);
			}
			return answer;
		});
	}

	// Takes of one key that may queue, entered in one transaction in the order given:
	// the database serializes a key's questions anyway, so a crowd of them costs one
	// connection and one turn of the key's lock rather than one each. Each answer is its
	// take's own: a take refused as reentrant fails alone.
	final List<KeyEntries.Answer> enterAll(LeaseKey key, List<KeyEntries.Entry> entries) {
		if (entries.size() == 1) {
			KeyEntries.Entry entry = entries.get(0);
			return List.of(KeyEntries.Answer
				.of(() -> enter(key, entry.holder(), entry.durationMicros(), true, entry::waiterId)));
		}
		return this.calls.transaction("take", key, (tx) -> {
			KeyModel state = lockAndLoadOrInsert(tx, key);
			long now = state.now(tx.now());
			List<KeyEntries.Answer> answers = new ArrayList<>(entries.size());
			for (KeyEntries.Entry entry : entries) {
				answers.add(KeyEntries.Answer
					.of(() -> state.take(entry.holder(), entry.durationMicros(), now, true, entry::waiterId)));
			}
			save(tx, state, now);
			return answers;
		});
	}

	private KeyModel lockAndLoadOrInsert(Transaction tx, LeaseKey key) {
		KeyModel state = lockAndLoad(tx, key);
		while (state == null) {
			// The clock is read only once the row is locked: an insert can wait.
			try {
				tx.update(this.statements.insertKeyIfAbsent, key.bytes());
			}
			catch (DataAccessException ex) {
				if (!this.dialect.lostInsertRace(ex)) {
					throw ex;
				}
			}
			state = lockAndLoad(tx, key);
		}
		return state;
	}

	// A take of a free key with nobody queued, in fewer round trips: the grant's
	// instant, or empty when the transaction must decide.
	OptionalLong takeFreeKey(String what, LeaseKey key, long durationMicros, byte[] holderBytes) {
		return OptionalLong.empty();
	}

	final Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		// One statement when nobody is queued: the row and the clock read together.
		KeyRow.Read read = readKeyAndNow("read the remaining term", key);
		if (read == null) {
			return Optional.empty();
		}
		KeyRow keyRow = read.row();
		if (keyRow.queued() == 0) {
			KeyModel state = keyRow.state(key, WaiterQueue.of(List.of()));
			return state.remaining(holder, state.now(read.now()));
		}
		// Answered from the resolved state; nothing is written (Check 5.2).
		return this.calls.transaction("read the remaining term", key, (tx) -> {
			KeyModel state = lockAndLoad(tx, key);
			return (state != null) ? state.remaining(holder, state.now(tx.now())) : Optional.empty();
		});
	}

	// The key's row, unlocked, read together with the clock, or null when it has none:
	// one statement, so it needs no transaction of its own.
	final KeyRow.@Nullable Read readKeyAndNow(String what, LeaseKey key) {
		byte[] keyBytes = key.bytes();
		return this.calls.statement(what, key,
				(tx) -> tx.queryRow(this.statements.selectKeyAndNow, KeyRow.ROW_AND_NOW, keyBytes));
	}

	// Whether the holder's standing grant was released.
	final boolean release(LeaseKey key, LeaseHolder holder) {
		byte[] holderBytes = holder.bytes();
		// With waiters of the key in this JVM its queue is most likely not empty: the
		// transaction decides at once.
		if (!this.calls.hasWaiters(key)) {
			if (!this.pickedUp.isEmpty()) {
				// Most often the row of the very grant released now, taken up a moment
				// ago.
				removePickedUpWaiters();
			}
			if (releaseWithNobodyQueued(key, holderBytes)) {
				return true;
			}
		}
		// Rows of grants taken up meanwhile go with the release's own writes.
		List<Long> picked = this.pickedUp.take();
		boolean[] removed = { false };
		try {
			return this.calls.transaction("release", key, (tx) -> {
				removed[0] = false;
				tx.pickedUpRows = picked;
				KeyModel state = lockAndLoad(tx, key);
				if (state == null) {
					return false;
				}
				long now = state.now(tx.now());
				if (!state.release(holder, now)) {
					// Answered from the resolved state; nothing is written (Check 5.2).
					return false;
				}
				save(tx, state, now);
				removed[0] = true;
				return true;
			});
		}
		finally {
			if (!removed[0]) {
				this.pickedUp.restore(picked);
			}
		}
	}

	// A release by the holder of a standing grant with nobody queued, in fewer round
	// trips: whether it released; when not, the transaction decides.
	boolean releaseWithNobodyQueued(LeaseKey key, byte[] holderBytes) {
		return false;
	}

	final void removePickedUpWaiters() {
		this.pickedUp.removeAll(this.calls, this.statements.deleteWaiter);
	}

	// The grant standing at the later of the reading and the key's latest, and its start,
	// derived with the key's row locked; nothing is saved (Check 5.2).
	final JdbcGrantReads.@Nullable Standing standing(LeaseKey key, long reading) {
		return this.calls.transaction("read the standing grant", key, (tx) -> {
			KeyModel state = lockAndLoad(tx, key);
			if (state == null) {
				return null;
			}
			long now = state.now(reading);
			state.resolve(now);
			LeaseHolder holder = state.holder();
			return (holder != null && state.expiresAt() > now) ? new JdbcGrantReads.Standing(
					new Lease(key, holder, Micros.toInstant(state.expiresAt())), state.grantedAt()) : null;
		});
	}

	// The common case after a release handed the waiter the key: its row holds the
	// grant, and only the waiter removes it. Two short statements, no lock on the key.
	@Nullable Granted pickUp(LeaseKey key, Queued queued) {
		KeyRow.WaiterRow mine = this.calls.statement("ask after a waiter", key,
				(tx) -> tx.queryRow(this.statements.selectWaiter, KeyRow.WAITER_ROW, queued.waiterId()));
		if (mine == null || mine.granted().isEmpty()) {
			return null;
		}
		long grantedExpiresAt = mine.granted().getAsLong();
		this.calls.statement("ask after a waiter", key,
				(tx) -> tx.update(this.statements.deleteWaiter, queued.waiterId()));
		return new Granted(grantedExpiresAt);
	}

	// "Where do I stand?": granted, queued (saving only what resolving handed on), or at
	// the bound or on interrupt "withdraw me, or tell me I was granted"; on interrupt a
	// grant handed to the waiter is released at once.
	final TakeAnswer ask(LeaseKey key, LeaseHolder holder, Queued queued, boolean interrupted) {
		long waiterId = queued.waiterId();
		Transaction.Work<TakeAnswer> work = (tx) -> {
			KeyModel state = lockAndLoad(tx, key);
			KeyRow.WaiterRow mine = tx.queryRow(this.statements.lockWaiter, KeyRow.WAITER_ROW, waiterId);
			OptionalLong handedBefore = (mine != null) ? mine.granted() : OptionalLong.empty();
			KeyModel model = (state != null) ? state : KeyModel.free(key);
			long now = model.now(tx.now());
			TakeAnswer answer = model.ask(waiterId, holder, handedBefore, now, interrupted);
			if (answer instanceof Queued) {
				// "Where do I stand?" saves nothing of its own. A resolve that handed the
				// key on is saved, so that the waiters it named are woken and can take
				// their grant: resolve is deterministic, the next question would derive
				// the same (Host semantics), and this is how a key's one re-asker serves
				// them.
				if (state != null && state.changed()) {
					save(tx, state, now);
				}
				return answer;
			}
			if (state != null) {
				save(tx, state, now);
			}
			if (mine != null) {
				tx.update(this.statements.deleteWaiter, waiterId);
			}
			return answer;
		};
		// A waiter that gives up withdraws without waiting for a busy pool.
		return interrupted ? this.calls.withdrawal("withdraw a waiter", key, work)
				: this.calls.transaction("ask after a waiter", key, work);
	}

	// Resolve a key whose passed grant still has a queue behind it, and save it.
	final void resolve(LeaseKey key) {
		this.calls.transaction("clean up", key, (tx) -> {
			KeyModel state = lockAndLoad(tx, key);
			if (state != null) {
				long now = state.now(tx.now());
				state.resolve(now);
				save(tx, state, now);
			}
			return state;
		});
	}

	final @Nullable KeyModel lockAndLoad(Transaction tx, LeaseKey key) {
		byte[] keyBytes = key.bytes();
		KeyRow keyRow = tx.queryRow(this.statements.selectKeyForUpdate, KeyRow.ROW, keyBytes);
		if (keyRow == null) {
			return null;
		}
		return keyRow.state(key, loadQueue(tx, keyBytes, keyRow.queued()));
	}

	// The key's queue, read from its head only as far as the question needs.
	WaiterQueue loadQueue(Transaction tx, byte[] keyBytes, int queued) {
		return new StoredQueue(tx, this.statements, keyBytes, queued);
	}

	// The grants handed to the key's waiters and not yet taken up, and the head of its
	// queue with the standing grant's end, to wake the waiters of this JVM they name.
	final List<KeyRow.Polled> poll(LeaseKey key) {
		byte[] keyBytes = key.bytes();
		return this.calls.statement("ask after a key's waiters", key, (tx) -> tx
			.queryRows(this.statements.selectHandedWaiters, 0, KeyRow.POLLED, keyBytes, keyBytes, keyBytes));
	}

	// Write back what the question changed: the resolved state with its own change.
	void save(Transaction tx, KeyModel state, long now) {
		byte[] keyBytes = state.key().bytes();
		deleteDropped(tx, state);
		for (HandedGrant handoff : state.handed()) {
			tx.update(this.statements.handWaiter, handoff.expiresAt(), handoff.waiter().id());
		}
		List<@Nullable Object[]> added = new ArrayList<>(state.added().size());
		for (QueuedWaiter waiter : state.added()) {
			added.add(new Object[] { waiter.id(), keyBytes, waiter.holder().bytes(), waiter.duration(), waiter.bound(),
					waiter.arrival(), waiter.arrivedAt() });
		}
		if (!added.isEmpty()) {
			tx.updateEach(this.statements.insertWaiter, added);
		}
		if (state.isFree(now)) {
			tx.update(this.statements.deleteKey, keyBytes);
		}
		else {
			tx.update(this.statements.updateKey, KeyRow.holderBytes(state), state.expiresAt(), now, state.queued(),
					state.arrivals(), state.grantedAt(), keyBytes);
		}
		String payload = WrittenHandoffs.note(tx, state, this.notifying, this.calls);
		if (payload != null) {
			tx.select(this.statements.notify, this.channel, payload);
		}
	}

	// Remove the rows of grants taken up meanwhile and of the waiters the state dropped.
	final void deleteDropped(Transaction tx, KeyModel state) {
		for (long pickedUpRow : tx.pickedUpRows) {
			tx.update(this.statements.deleteWaiter, pickedUpRow);
		}
		for (QueuedWaiter waiter : state.dropped()) {
			tx.update(this.statements.deleteWaiter, waiter.id());
		}
	}

}
