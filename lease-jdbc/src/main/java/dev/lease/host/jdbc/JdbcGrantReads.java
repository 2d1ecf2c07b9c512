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

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.QueuedTakes;
import dev.lease.host.KeyCursor;
import dev.lease.host.Micros;

/**
 * The JDBC host's reads for operators: a page of the standing grants in one statement,
 * keyset-paged by key with the database clock read in the same statement, the exact read
 * of one key's standing grant, each with its start where the key's row keeps it (Grants
 * 8), and how many takes wait for a key. All write nothing (Check 5.2): a row whose
 * stored grant passed while waiters queue is derived, for the listing and the exact read,
 * by the store's state model with the row locked, and nothing is saved.
 *
 * @author Lease contributors
 */
final class JdbcGrantReads {

	private static final byte[] BEFORE_EVERY_KEY = new byte[0];

	private final JdbcLeaseStore store;

	JdbcGrantReads(JdbcLeaseStore store) {
		this.store = store;
	}

	// The page after the cursor's key: rows of at most limit keys that have a holder, in
	// key order, and one reading of the clock; a row that stands no more is passed over,
	// so a page may list fewer grants than it read rows.
	GrantsPage page(@Nullable String cursor, int limit) {
		byte[] after = (cursor != null) ? KeyCursor.key(cursor).bytes() : BEFORE_EVERY_KEY;
		List<PageRow> rows = this.store.calls.statement("list the grants", null,
				(tx) -> tx.queryRows(this.store.statements.selectGrants, 0, JdbcGrantReads::pageRow, after, limit));
		long reading = rows.get(0).reading();
		List<Lease> grants = new ArrayList<>();
		Map<LeaseKey, Instant> starts = new HashMap<>();
		byte @Nullable [] last = null;
		for (PageRow row : rows) {
			byte[] keyBytes = row.key();
			KeyRow keyRow = row.row();
			if (keyBytes != null && keyRow != null) {
				last = keyBytes;
				Standing standing = standing(keyBytes, keyRow, reading);
				if (standing != null) {
					grants.add(standing.grant());
					standing.start().ifPresent((start) -> starts.put(standing.grant().key(), start));
				}
			}
		}
		String next = (last != null && rows.size() == limit) ? KeyCursor.of(LeaseKey.of(last)) : null;
		return new GrantsPage(grants, Micros.toInstant(reading), next, starts);
	}

	Optional<Lease> grant(LeaseKey key) {
		return Optional.ofNullable(standing(key)).map(Standing::grant);
	}

	// The start of exactly the given grant, read as the grant is: empty once another
	// stands in its place, or none does.
	Optional<Instant> grantedAt(Lease grant) {
		Standing standing = standing(grant.key());
		return (standing != null && standing.grant().equals(grant)) ? standing.start() : Optional.empty();
	}

	private @Nullable Standing standing(LeaseKey key) {
		KeyRow.Read read = this.store.readKeyAndNow("read the standing grant", key);
		return (read != null) ? standing(key.bytes(), read.row(), read.now()) : null;
	}

	// One statement: the key's waiters that are neither handed the key nor past their
	// bound, and when the first of them arrived. A stored grant that passed a moment ago
	// and that no question has handed on yet still counts the waiter it goes to, until
	// that waiter asks at the grant's instant and is handed it: deriving it would lock
	// the
	// key's row. Arrival instants rise with arrival order, so the least is the first's; 0
	// is a waiter queued before the column existed, whose arrival is not known.
	QueuedTakes waiting(LeaseKey key) {
		QueuedTakes waiting = this.store.calls.statement("read how many wait", key,
				(tx) -> tx.queryRow(this.store.statements.selectWaiting, JdbcGrantReads::waitingRow, key.bytes()));
		return (waiting != null) ? waiting : QueuedTakes.NONE;
	}

	// None when the key has no row.
	private static QueuedTakes waitingRow(ResultSet resultSet, int rowNumber) throws SQLException {
		if (resultSet.getObject(4) == null) {
			return QueuedTakes.NONE;
		}
		int count = Math.toIntExact(KeyRow.number(resultSet, 7));
		long since = resultSet.getLong(8);
		return (count == 0) ? QueuedTakes.NONE : new QueuedTakes(count, (since > 0) ? Micros.toInstant(since) : null);
	}

	// The grant standing at the later of the reading and the key's latest. Only a stored
	// grant that passed while waiters queue needs the state model: the key's row and
	// queue are read again, locked, and derived at that instant.
	private @Nullable Standing standing(byte[] keyBytes, KeyRow row, long reading) {
		long now = Math.max(reading, row.latest());
		byte[] holder = row.holder();
		if (holder != null && row.expiresAt() > now) {
			return new Standing(
					new Lease(LeaseKey.of(keyBytes), LeaseHolder.of(holder), Micros.toInstant(row.expiresAt())),
					row.grantedAt());
		}
		return (row.queued() > 0) ? this.store.standing(LeaseKey.of(keyBytes), reading) : null;
	}

	// The page's one clock reading is on every row; a page with no key is one row
	// without a key.
	private static PageRow pageRow(ResultSet resultSet, int rowNumber) throws SQLException {
		byte[] key = resultSet.getBytes(2);
		return new PageRow(KeyRow.number(resultSet, 1), key, (key != null) ? KeyRow.of(resultSet, 3) : null);
	}

	private record PageRow(long reading, byte @Nullable [] key, @Nullable KeyRow row) {

	}

	/**
	 * A standing grant and when it began.
	 *
	 * @param grant the grant
	 * @param grantedAt its start, microseconds since the epoch, or 0 where the key's row
	 * does not say
	 */
	record Standing(Lease grant, long grantedAt) {

		Optional<Instant> start() {
			return (this.grantedAt != 0) ? Optional.of(Micros.toInstant(this.grantedAt)) : Optional.empty();
		}

	}

}
