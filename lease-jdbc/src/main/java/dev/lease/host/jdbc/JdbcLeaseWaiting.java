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

import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.host.BlockingWaiter;
import dev.lease.host.GaveUp;
import dev.lease.host.Micros;
import dev.lease.host.TakeAnswer;
import dev.lease.host.TakeAnswer.Granted;
import dev.lease.host.TakeAnswer.Queued;
import dev.lease.host.WaiterMachine;
import dev.lease.host.WaiterStore;
import dev.lease.host.Wakeups;

/**
 * The JDBC host's take (Host semantics): it queues the caller at the database, then waits
 * through the host kit's {@link WaiterMachine}, which decides when it sleeps, picks up a
 * grant handed to it or asks where it stands, and polls; at its bound, on an interrupt,
 * or when the database gives no answer, it withdraws. This class supplies the database's
 * questions.
 * <p>
 * A hot key costs the same at any queue length: a waiter is woken only by a wake-up that
 * names it ({@link Wakeups}): the grant handed to it, from PostgreSQL
 * {@code LISTEN/NOTIFY} or a release made through the same host, or its turn to ask when
 * the standing grant ends, as the waiter next in line. Of this JVM's waiters of a key,
 * only the delegate re-asks on its own, for lost messages and for handoffs by expiry; and
 * without notifications it is the key's one poller, which polls the grants handed to the
 * key's waiters with a short bounded backoff and wakes the ones named, and tells the head
 * of the queue when the standing grant ends, wherever it was handed. Every other waiter
 * sleeps to its bound unless a wake-up names it.
 *
 * @author Lease contributors
 */
final class JdbcLeaseWaiting {

	private final SecureRandom random = new SecureRandom();

	private final JdbcLeaseStore store;

	private final Wakeups<LeaseKey, Long> wakeups;

	private final StoreInterrupts interrupts;

	private final KeyEntries entries;

	private final PickedUpWaiters pickedUp;

	private final @Nullable PostgresqlNotificationListener listener;

	JdbcLeaseWaiting(JdbcLeaseStore store, Wakeups<LeaseKey, Long> wakeups, StoreInterrupts interrupts,
			PickedUpWaiters pickedUp, @Nullable PostgresqlNotificationListener listener) {
		this.store = store;
		this.wakeups = wakeups;
		this.interrupts = interrupts;
		this.entries = new KeyEntries(store, interrupts);
		this.pickedUp = pickedUp;
		this.listener = listener;
	}

	TakeResult take(LeaseKey key, LeaseHolder holder, long durationMicros) throws InterruptedException {
		PostgresqlNotificationListener listener = this.listener;
		if (listener != null) {
			// Not waited for, so that takes are queued in the order they come: until it
			// listens, waiters poll, and they all ask once when it does.
			listener.start();
		}
		// Registered under the id we will have in the queue before asking a question
		// whose answer we may sleep on: a wake-up that names us is never missed.
		long waiterId = this.random.nextLong();
		Wakeups.Signal<Long> signal = this.wakeups.register(key, waiterId);
		try {
			TakeAnswer entered;
			try {
				entered = this.entries.enter(key, new KeyEntries.Entry(holder, durationMicros, waiterId));
			}
			catch (GaveUp ex) {
				// Interrupted before anything was sent: nothing stands for us.
				Thread.interrupted();
				throw new InterruptedException(ex.getMessage());
			}
			if (entered instanceof Queued queued) {
				this.wakeups.timer().answered(queued.now(), System.nanoTime());
				Waiter waiter = new Waiter(key, holder, queued);
				return BlockingWaiter.await(signal,
						new WaiterMachine(signal, Micros.toDuration(durationMicros), this::polling), queued, waiter,
						this.store.calls.threads.executor());
			}
			if (entered instanceof Granted granted) {
				return taken(key, holder, granted);
			}
			throw new IllegalStateException("A take that may queue was refused");
		}
		finally {
			this.wakeups.unregister(key, signal);
		}
	}

	static Taken taken(LeaseKey key, LeaseHolder holder, Granted granted) {
		return new Taken(new Lease(key, holder, Micros.toInstant(granted.expiresAt())));
	}

	// Without notifications, the delegate is its key's one poller.
	private boolean polling() {
		PostgresqlNotificationListener listener = this.listener;
		return listener == null || !listener.isListening();
	}

	/**
	 * The database's questions for one queued take.
	 */
	private final class Waiter implements WaiterStore {

		private final LeaseKey key;

		private final LeaseHolder holder;

		// The last answer: the row the waiter stands as, which its questions name.
		private Queued queued;

		// The head of the queue and the standing grant's end, as this poller last told
		// them.
		private Wakeups.@Nullable NextInLine<Long> nextInLine;

		Waiter(LeaseKey key, LeaseHolder holder, Queued queued) {
			this.key = key;
			this.holder = holder;
			this.queued = queued;
		}

		@Override
		public TakeAnswer ask(boolean atBound, long answerBy) {
			JdbcLeaseStore store = JdbcLeaseWaiting.this.store;
			StoreInterrupts interrupts = JdbcLeaseWaiting.this.interrupts;
			Queued asking = this.queued;
			Granted picked = interrupts
				.givingUp(() -> store.calls.answeringBy(answerBy, () -> store.pickUp(this.key, asking)));
			TakeAnswer answer = (picked != null) ? picked : interrupts.givingUp(
					() -> store.calls.answeringBy(answerBy, () -> store.ask(this.key, this.holder, asking, false)));
			if (answer instanceof Queued again) {
				this.queued = again;
				JdbcLeaseWaiting.this.wakeups.timer().answered(again.now(), System.nanoTime());
			}
			return answer;
		}

		// On the withdrawal connection, so that a busy pool does not keep it waiting (on
		// a
		// pooled one when the database refuses another).
		@Override
		public void withdraw() {
			JdbcLeaseWaiting.this.store.ask(this.key, this.holder, this.queued, true);
		}

		// Wake the waiters the committed handoffs name, and tell the head of the queue
		// when
		// the standing grant ends, since a grant handed on another host is announced to
		// nobody here.
		@Override
		public boolean poll(long answerBy) {
			JdbcLeaseStore store = JdbcLeaseWaiting.this.store;
			List<KeyRow.Polled> rows = JdbcLeaseWaiting.this.interrupts
				.givingUp(() -> store.calls.answeringBy(answerBy, () -> store.poll(this.key)));
			List<Wakeups.Handoff<Long>> handed = new ArrayList<>(rows.size());
			for (KeyRow.Polled row : rows) {
				Wakeups.NextInLine<Long> next = row.next();
				if (row.handed() != null) {
					handed.add(row.handed());
				}
				else if (next != null && !next.equals(this.nextInLine)) {
					// Told once per change, so that the head is not woken at every poll.
					this.nextInLine = next;
					JdbcLeaseWaiting.this.wakeups.nextInLine(this.key, next.waiter(), next.standingExpiresAt());
				}
			}
			// Rows of grants already taken up, here or elsewhere, wake nobody.
			return !handed.isEmpty() && JdbcLeaseWaiting.this.wakeups.wake(this.key, handed) > 0;
		}

		// A committed handoff named us (a notification, a release made here, or the key's
		// poller): take it without a round trip, and leave our row, which nobody else
		// reads, to the listener or our next release.
		@Override
		public TakeResult taken(Instant expiresAt, boolean handed) {
			if (handed) {
				JdbcLeaseWaiting.this.pickedUp.add(this.queued.waiterId());
			}
			return new Taken(new Lease(this.key, this.holder, expiresAt));
		}

	}

}
