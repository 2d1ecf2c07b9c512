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
 * record of what it took out and put in, for the store to write back. Each collection is
 * made only when the question first needs it: most questions meet an empty queue and
 * change nothing, and then cost no allocation beyond this object.
 *
 * @author Lease contributors
 */
final class KeyModelQueue {

	private final WaiterQueue stored;

	private @Nullable Iterator<QueuedWaiter> unread;

	private @Nullable QueuedWaiter peeked;

	/** Waiters this question added and still queued, behind every stored one. */
	private @Nullable ArrayDeque<QueuedWaiter> tail;

	/** Ids of the waiters this question took out of the queue. */
	private @Nullable Set<Long> removed;

	private @Nullable List<QueuedWaiter> dropped;

	private @Nullable List<QueuedWaiter> added;

	private final int storedSize;

	private int size;

	KeyModelQueue(WaiterQueue stored) {
		this.stored = stored;
		this.storedSize = stored.size();
		this.size = this.storedSize;
	}

	int size() {
		return this.size;
	}

	// Take the head out of the queue; the caller hands it the key or drops it.
	@Nullable QueuedWaiter pollHead() {
		QueuedWaiter head = peekStored();
		this.peeked = null;
		if (head == null && this.tail != null) {
			head = this.tail.poll();
		}
		if (head != null) {
			removed().add(head.id());
			this.size--;
		}
		return head;
	}

	// The head of the queue, left in it.
	@Nullable QueuedWaiter head() {
		QueuedWaiter head = peekStored();
		return (head != null || this.tail == null) ? head : this.tail.peek();
	}

	// The first stored waiter not taken out, read once and kept until it is taken.
	private @Nullable QueuedWaiter peekStored() {
		if (this.peeked != null && !isRemoved(this.peeked.id())) {
			return this.peeked;
		}
		this.peeked = null;
		if (this.unread == null) {
			if (this.storedSize == 0) {
				return null;
			}
			this.unread = this.stored.headFirst();
		}
		while (this.unread.hasNext()) {
			QueuedWaiter waiter = this.unread.next();
			if (!isRemoved(waiter.id())) {
				this.peeked = waiter;
				return waiter;
			}
		}
		return null;
	}

	void add(QueuedWaiter waiter) {
		if (this.tail == null) {
			this.tail = new ArrayDeque<>();
		}
		this.tail.add(waiter);
		if (this.added == null) {
			this.added = new ArrayList<>();
		}
		this.added.add(waiter);
		this.size++;
	}

	List<QueuedWaiter> waitersOf(LeaseHolder holder) {
		List<QueuedWaiter> waiters = new ArrayList<>();
		if (this.storedSize > 0) {
			for (QueuedWaiter waiter : this.stored.waitersOf(holder)) {
				if (!isRemoved(waiter.id())) {
					waiters.add(waiter);
				}
			}
		}
		if (this.tail != null) {
			for (QueuedWaiter waiter : this.tail) {
				if (waiter.holder().equals(holder)) {
					waiters.add(waiter);
				}
			}
		}
		return waiters;
	}

	@Nullable QueuedWaiter find(long waiterId) {
		if (isRemoved(waiterId)) {
			return null;
		}
		if (this.tail != null) {
			for (QueuedWaiter waiter : this.tail) {
				if (waiter.id() == waiterId) {
					return waiter;
				}
			}
		}
		return (this.storedSize > 0) ? this.stored.find(waiterId).orElse(null) : null;
	}

	// Take a waiter out wherever it stands, without a grant.
	void remove(QueuedWaiter waiter) {
		removed().add(waiter.id());
		this.size--;
		if (this.tail != null) {
			this.tail.remove(waiter);
		}
		dropped(waiter);
	}

	// Record a waiter taken out without a grant; one this question added was never
	// stored, so there is nothing to write for it.
	void dropped(QueuedWaiter waiter) {
		if (this.added == null || !this.added.remove(waiter)) {
			if (this.dropped == null) {
				this.dropped = new ArrayList<>();
			}
			this.dropped.add(waiter);
		}
	}

	List<QueuedWaiter> dropped() {
		return (this.dropped != null) ? Collections.unmodifiableList(this.dropped) : List.of();
	}

	List<QueuedWaiter> added() {
		return (this.added != null) ? Collections.unmodifiableList(this.added) : List.of();
	}

	// Whether the question dropped or added a waiter that the store must write.
	boolean changed() {
		return (this.dropped != null && !this.dropped.isEmpty()) || (this.added != null && !this.added.isEmpty());
	}

	private boolean isRemoved(long waiterId) {
		return this.removed != null && this.removed.contains(waiterId);
	}

	private Set<Long> removed() {
		if (this.removed == null) {
			this.removed = new HashSet<>();
		}
		return this.removed;
	}

}
