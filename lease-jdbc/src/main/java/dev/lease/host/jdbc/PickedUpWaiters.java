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
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.lease.LeaseHostException;

/**
 * The waiter rows whose handed grant was taken up from a notification, without a round
 * trip: nobody reads them any more, so they are removed later, by the listener or by this
 * host's next release. A row whose removal is lost (a crash, a failed connection) is
 * swept a while after its grant and its waiter's bound have passed.
 *
 * @author Lease contributors
 */
final class PickedUpWaiters {

	private static final Log logger = LogFactory.getLog(PickedUpWaiters.class);

	private final ConcurrentLinkedQueue<Long> rows = new ConcurrentLinkedQueue<>();

	void add(long waiterId) {
		this.rows.add(waiterId);
	}

	boolean isEmpty() {
		return this.rows.isEmpty();
	}

	// The rows gathered so far, for a transaction to remove with its own writes.
	List<Long> take() {
		List<Long> taken = new ArrayList<>();
		for (Long id = this.rows.poll(); id != null; id = this.rows.poll()) {
			taken.add(id);
		}
		return taken;
	}

	// Keep rows that a transaction did not remove for the next time.
	void restore(List<Long> ids) {
		this.rows.addAll(ids);
	}

	// Remove the rows gathered so far; the ones not removed are kept for the next time.
	<E extends Exception> void remove(Delete<E> delete) throws E {
		List<Long> taken = take();
		for (int i = 0; i < taken.size(); i++) {
			try {
				delete.row(taken.get(i));
			}
			catch (Exception ex) {
				this.rows.addAll(taken.subList(i, taken.size()));
				throw ex;
			}
		}
	}

	// Remove the rows gathered so far in one call of the store; a failure leaves them for
	// the next time.
	void removeAll(JdbcLeaseCalls calls, String deleteWaiter) {
		try {
			calls.statement("clean up", null, (tx) -> {
				remove((id) -> tx.update(deleteWaiter, id));
				return null;
			});
		}
		catch (LeaseHostException ex) {
			logger.debug("Could not remove the rows of taken-up grants; they are removed later", ex);
		}
	}

	/**
	 * Deletes one waiter row: through the store's calls, or on the listening connection.
	 *
	 * @param <E> what a deletion may throw
	 */
	@FunctionalInterface
	interface Delete<E extends Exception> {

		void row(long waiterId) throws E;

	}

}
