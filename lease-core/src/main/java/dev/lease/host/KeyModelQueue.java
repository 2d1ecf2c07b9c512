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

package dev.lease.host;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHolder;

/**
 * A key's queue as one question of a {@link KeyModel} changes it: the stored waiters,
 * read head first only as far as the question goes, then the waiters it added; and the
 * record of what it took out and put in, for the store to write back.
 *
 * @author Lease contributors
 */
final class KeyModelQueue {

	private final WaiterQueue stored;

	private @Nullable Iterator<QueuedWaiter> unread;

	private @Nullable QueuedWaiter peeked;

	/** Waiters this question added and still queued, behind every stored one. */
	private final ArrayDeque<QueuedWaiter> tail = new ArrayDeque<>();

	/** Ids of the waiters this question took out of the queue. */
	private final Set<Long> removed = new HashSet<>();

	private final List<QueuedWaiter> dropped = new ArrayList<>();

	private final List<QueuedWaiter> added = new ArrayList<>();

	private int size;

	KeyModelQueue(WaiterQueue stored) {
		this.stored = stored;
		this.size = stored.size();
	}

	int size() {
		return this.size;
	}

	// Take the head out of the queue; the caller hands it the key or drops it.
	@Nullable QueuedWaiter pollHead() {
		QueuedWaiter head = readStored();
		if (head == null) {
			head = this.tail.poll();
		}
		if (head != null) {
			this.removed.add(head.id());
			this.size--;
		}
		return head;
	}

	// The head of the queue, left in it.
	@Nullable QueuedWaiter head() {
		QueuedWaiter head = peekStored();
		return (head != null) ? head : this.tail.peek();
	}

	private @Nullable QueuedWaiter readStored() {
		QueuedWaiter head = peekStored();
		this.peeked = null;
		return head;
	}

	// The first stored waiter not taken out, read once and kept until it is taken.
	private @Nullable QueuedWaiter peekStored() {
		if (this.peeked != null && !this.removed.contains(this.peeked.id())) {
			return this.peeked;
		}
		this.peeked = null;
		if (this.unread == null) {
			this.unread = this.stored.headFirst();
		}
		while (this.unread.hasNext()) {
			QueuedWaiter waiter = this.unread.next();
			if (!this.removed.contains(waiter.id())) {
				this.peeked = waiter;
				return waiter;
			}
		}
		return null;
	}

	void add(QueuedWaiter waiter) {
		this.tail.add(waiter);
		this.added.add(waiter);
		this.size++;
	}

	List<QueuedWaiter> waitersOf(LeaseHolder holder) {
		List<QueuedWaiter> waiters = new ArrayList<>();
		for (QueuedWaiter waiter : this.stored.waitersOf(holder)) {
			if (!this.removed.contains(waiter.id())) {
				waiters.add(waiter);
			}
		}
		for (QueuedWaiter waiter : this.tail) {
			if (waiter.holder().equals(holder)) {
				waiters.add(waiter);
			}
		}
		return waiters;
	}

	@Nullable QueuedWaiter find(long waiterId) {
		if (this.removed.contains(waiterId)) {
			return null;
		}
		for (QueuedWaiter waiter : this.tail) {
			if (waiter.id() == waiterId) {
				return waiter;
			}
		}
		return this.stored.find(waiterId).orElse(null);
	}

	// Take a waiter out wherever it stands, without a grant.
	void remove(QueuedWaiter waiter) {
		this.removed.add(waiter.id());
		this.size--;
		this.tail.remove(waiter);
		dropped(waiter);
	}

	// Record a waiter taken out without a grant; one this question added was never
	// stored, so there is nothing to write for it.
	void dropped(QueuedWaiter waiter) {
		if (!this.added.remove(waiter)) {
			this.dropped.add(waiter);
		}
	}

	List<QueuedWaiter> dropped() {
		return Collections.unmodifiableList(this.dropped);
	}

	List<QueuedWaiter> added() {
		return Collections.unmodifiableList(this.added);
	}

}
