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

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

import dev.lease.LeaseHolder;

/**
 * A key's queue of waiters as a store supplies it to a {@link KeyModel}: in arrival
 * order, head first, read only as far as a question needs. Most questions need the head
 * alone, so a store may read its waiters lazily, a few at a time; the two questions that
 * reach past the head, the waiters of one holder and one waiter by its id, have defaults
 * that walk the queue and may be answered from an index instead.
 * <p>
 * The model never changes the queue it is given: it records what it removed and added,
 * for the store to write back.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public interface WaiterQueue {

	/**
	 * Return how many waiters are queued.
	 * @return the queue's length
	 */
	int size();

	/**
	 * Return the waiters in arrival order, head first; a store may read each one only
	 * when it is asked for.
	 * @return the waiters, head first
	 */
	Iterator<QueuedWaiter> headFirst();

	/**
	 * Return the queued waiters of one holder, in arrival order.
	 * @param holder the holder
	 * @return its waiters
	 */
	default List<QueuedWaiter> waitersOf(LeaseHolder holder) {
		List<QueuedWaiter> waiters = new ArrayList<>();
		headFirst().forEachRemaining((waiter) -> {
			if (waiter.holder().equals(holder)) {
				waiters.add(waiter);
			}
		});
		return waiters;
	}

	/**
	 * Return the queued waiter with the given id.
	 * @param id the waiter's id
	 * @return the waiter, or empty when it is not queued
	 */
	default Optional<QueuedWaiter> find(long id) {
		for (Iterator<QueuedWaiter> waiters = headFirst(); waiters.hasNext();) {
			QueuedWaiter waiter = waiters.next();
			if (waiter.id() == id) {
				return Optional.of(waiter);
			}
		}
		return Optional.empty();
	}

	/**
	 * Return a queue of the given waiters, read as they stand.
	 * @param waiters the waiters in arrival order, head first
	 * @return the queue
	 */
	static WaiterQueue of(Collection<QueuedWaiter> waiters) {
		return new WaiterQueue() {

			@Override
			public int size() {
				return waiters.size();
			}

			@Override
			public Iterator<QueuedWaiter> headFirst() {
				return waiters.iterator();
			}

		};
	}

}
