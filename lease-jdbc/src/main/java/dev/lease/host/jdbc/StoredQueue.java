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

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;

import dev.lease.LeaseHolder;
import dev.lease.host.QueuedWaiter;
import dev.lease.host.WaiterQueue;

/**
 * A key's queue as its waiter rows stand, read inside the transaction that locked the
 * key's row and only as far as the question needs (issue 16): its length from the key's
 * row, its head a few rows at a time by (LEASE_KEY, ARRIVAL), a waiter by its id, and a
 * holder's waiters by (LEASE_KEY, HOLDER). A handoff therefore costs the same at any
 * queue length.
 *
 * @author Lease contributors
 */
final class StoredQueue implements WaiterQueue {

	// A handoff reads the head and the waiter behind it, to tell it that it is next.
	static final int FIRST_PAGE = 2;

	private static final int NEXT_PAGE = 32;

	private final Transaction tx;

	private final JdbcLeaseStatements statements;

	private final byte[] keyBytes;

	private final int size;

	private final List<QueuedWaiter> read = new ArrayList<>();

	private boolean complete;

	StoredQueue(Transaction tx, JdbcLeaseStatements statements, byte[] keyBytes, int size) {
		this.tx = tx;
		this.statements = statements;
		this.keyBytes = keyBytes;
		this.size = size;
		this.complete = (size == 0);
	}

	// A queue whose first page is read at once with a reading of the clock, in one round
	// trip, on a database that reads its clock in the statement: the key's row is locked
	// already, so the reading is taken with it locked.
	static StoredQueue readWithClock(Transaction tx, JdbcLeaseStatements statements, byte[] keyBytes, int size) {
		StoredQueue queue = new StoredQueue(tx, statements, keyBytes, size);
		if (size == 0) {
			return queue;
		}
		for (KeyRow.QueueRow row : tx.queryRows(statements.selectQueuePageAndNow, 0, KeyRow.NOW_AND_WAITER, keyBytes,
				Long.MIN_VALUE, FIRST_PAGE)) {
			tx.clockRead(row.now());
			if (row.waiter() != null) {
				queue.read.add(row.waiter());
			}
		}
		queue.complete = queue.read.size() < FIRST_PAGE;
		return queue;
	}

	@Override
	public int size() {
		return this.size;
	}

	@Override
	public Iterator<QueuedWaiter> headFirst() {
		return new Iterator<>() {

			private int next;

			@Override
			public boolean hasNext() {
				return this.next < StoredQueue.this.read.size() || readPage();
			}

			@Override
			public QueuedWaiter next() {
				if (!hasNext()) {
					throw new NoSuchElementException();
				}
				return StoredQueue.this.read.get(this.next++);
			}

		};
	}

	// Read the next page; whether it brought any waiter.
	private boolean readPage() {
		if (this.complete) {
			return false;
		}
		int pageSize = this.read.isEmpty() ? FIRST_PAGE : NEXT_PAGE;
		long after = this.read.isEmpty() ? Long.MIN_VALUE : this.read.get(this.read.size() - 1).arrival();
		List<QueuedWaiter> page = this.tx.queryRows(this.statements.selectQueuePage, 0, KeyRow.WAITER, this.keyBytes,
				after, pageSize);
		this.read.addAll(page);
		this.complete = page.size() < pageSize;
		return !page.isEmpty();
	}

	@Override
	public List<QueuedWaiter> waitersOf(LeaseHolder holder) {
		return this.tx.queryRows(this.statements.selectWaitersOfHolder, 0, KeyRow.WAITER, this.keyBytes,
				holder.bytes());
	}

	@Override
	public Optional<QueuedWaiter> find(long id) {
		for (QueuedWaiter waiter : this.read) {
			if (waiter.id() == id) {
				return Optional.of(waiter);
			}
		}
		return Optional
			.ofNullable(this.tx.queryRow(this.statements.selectQueuedWaiter, KeyRow.WAITER, id, this.keyBytes));
	}

}
