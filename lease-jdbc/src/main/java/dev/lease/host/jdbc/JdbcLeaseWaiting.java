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
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.Unavailable;
import dev.lease.host.Micros;
import dev.lease.host.TakeAnswer;
import dev.lease.host.TakeAnswer.Granted;
import dev.lease.host.TakeAnswer.Queued;
import dev.lease.host.Wakeups;
import dev.lease.host.Withdrawals;

/**
 * The JDBC host's waiting protocol (Host semantics): a take queues the caller at the
 * database, sleeps until woken or no longer than it may, then picks up a grant handed to
 * it or asks where it stands; at its bound, on an interrupt, or when the database gives
 * no answer, it withdraws.
 * <p>
 * A hot key costs the same at any queue length (issue 16): a waiter is woken only by a
 * wake-up that names it ({@link Wakeups}): the grant handed to it, from PostgreSQL
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

	private static final long FIRST_BACKOFF_MICROS = 2_000;

	private static final long MAXIMUM_BACKOFF_MICROS = 100_000;

	// A waiter made the delegate when the last one left, most often handed the key: the
	// key's polling goes on from here rather than from the first backoff.
	private static final long TAKEN_OVER_BACKOFF_MICROS = 25_000;

	// Asked this long after an instant, so as not to ask before the database has passed
	// it.
	private static final long LATE_MICROS = 1_000;

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
			catch (StoreInterrupts.GaveUp ex) {
				// Interrupted before anything was sent: nothing stands for us.
				Thread.interrupted();
				throw new InterruptedException(ex.getMessage());
			}
			if (entered instanceof Queued queued) {
				return new Waiter(key, holder, durationMicros, signal).await(queued);
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

	/**
	 * One queued take, from its first answer to its last.
	 */
	private final class Waiter {

		private final LeaseKey key;

		private final LeaseHolder holder;

		private final long durationMicros;

		private final Wakeups.Signal<Long> signal;

		private Queued queued;

		// The System.nanoTime() of the answer in queued: the host's now on this JVM's
		// timer.
		private long asked;

		private long polled;

		private long backoff = FIRST_BACKOFF_MICROS;

		private boolean delegate;

		// The head of the queue and the standing grant's end, as this poller last told
		// them.
		private Wakeups.@Nullable NextInLine<Long> nextInLine;

		Waiter(LeaseKey key, LeaseHolder holder, long durationMicros, Wakeups.Signal<Long> signal) {
			this.key = key;
			this.holder = holder;
			this.durationMicros = durationMicros;
			this.signal = signal;
			this.queued = new Queued(0, 0, 0, 0, false);
		}

		TakeResult await(Queued entered) throws InterruptedException {
			answered(entered, System.nanoTime());
			this.delegate = this.signal.delegate();
			while (true) {
				try {
					this.signal.await(wakeAt() - System.nanoTime());
				}
				catch (InterruptedException ex) {
					throw giveUp(ex);
				}
				Instant handed = this.signal.handed();
				if (handed != null) {
					// A committed handoff named us (a notification, a release made here,
					// or the key's poller): take it without a round trip, and leave our
					// row, which nobody else reads, to the listener or our next release.
					JdbcLeaseWaiting.this.pickedUp.add(this.queued.waiterId());
					return new Taken(new Lease(this.key, this.holder, handed));
				}
				long now = System.nanoTime();
				boolean delegate = this.signal.delegate();
				if (delegate && !this.delegate) {
					this.backoff = TAKEN_OVER_BACKOFF_MICROS;
				}
				this.delegate = delegate;
				boolean askNow = this.signal.takeAskNow();
				// The delegate told to ask (its host has just started to hear
				// notifications)
				// asks for the key's other waiters too.
				boolean reask = delegate && (askNow || now >= reaskAt());
				if (!askNow && now <= boundAt() && now < nextAskAt() && !reask) {
					if (delegate && polling() && now >= pollAt()) {
						poll(now);
					}
					continue;
				}
				if (reask) {
					// A wake-up may have been lost: wake whom the committed handoffs
					// name.
					poll(now);
				}
				TakeAnswer answer = ask();
				if (answer instanceof Granted granted) {
					return taken(this.key, this.holder, granted);
				}
				if (!(answer instanceof Queued stillQueued)) {
					return new Unavailable();
				}
				answered(stillQueued, System.nanoTime());
			}
		}

		private void answered(Queued answer, long nanoTime) {
			this.queued = answer;
			this.asked = nanoTime;
			this.polled = nanoTime;
			this.signal.answered(answer.next(), Micros.toInstant(answer.grantExpiresAt()),
					Micros.toInstant(answer.now()));
		}

		// Sleep to just past the bound, or to the standing grant's end when next in
		// line, or (the delegate) to the re-ask or the next poll.
		private long wakeAt() {
			long wakeAt = Math.min(boundAt() + Micros.toNanos(LATE_MICROS), nextAskAt());
			if (this.signal.delegate()) {
				wakeAt = Math.min(wakeAt, reaskAt());
				if (polling()) {
					wakeAt = Math.min(wakeAt, pollAt());
				}
			}
			return wakeAt;
		}

		private long boundAt() {
			return at(this.queued.bound());
		}

		// The delegate re-asks no later than the standing grant's end or half its own
		// duration (Host semantics).
		private long reaskAt() {
			return Math.min(at(this.queued.grantExpiresAt()), this.asked + Micros.toNanos(this.durationMicros / 2))
					+ Micros.toNanos(LATE_MICROS);
		}

		// When the waiter next in line asks, or never.
		private long nextAskAt() {
			Instant ends = this.signal.standingExpiresAt();
			return (ends != null) ? at(Micros.of(ends)) + Micros.toNanos(LATE_MICROS) : Long.MAX_VALUE;
		}

		private long pollAt() {
			return this.polled + Micros.toNanos(this.backoff);
		}

		// An instant on the host's clock on this JVM's timer, from the last answer.
		private long at(long hostMicros) {
			return this.asked + Micros.toNanos(hostMicros - this.queued.now());
		}

		private boolean polling() {
			PostgresqlNotificationListener listener = JdbcLeaseWaiting.this.listener;
			return listener == null || !listener.isListening();
		}

		// The key's one poller in this JVM: wake the waiters the committed handoffs name,
		// and tell the head of the queue when the standing grant ends, since a grant
		// handed on another host is announced to nobody here. A failed poll costs latency
		// only; the waiter's own questions report failures.
		private void poll(long now) throws InterruptedException {
			this.polled = now;
			List<KeyRow.Polled> rows;
			JdbcLeaseStore store = JdbcLeaseWaiting.this.store;
			try {
				rows = JdbcLeaseWaiting.this.interrupts
					.givingUp(() -> store.calls.answeringBy(answerBy(), () -> store.poll(this.key)));
			}
			catch (StoreInterrupts.GaveUp ex) {
				throw giveUp(new InterruptedException(ex.getMessage()));
			}
			catch (LeaseHostException ex) {
				rows = List.of();
			}
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
			if (!handed.isEmpty() && JdbcLeaseWaiting.this.wakeups.wake(this.key, handed) > 0) {
				this.backoff = FIRST_BACKOFF_MICROS;
			}
			else {
				this.backoff = Math.min(this.backoff * 2, MAXIMUM_BACKOFF_MICROS);
			}
		}

		private TakeAnswer ask() throws InterruptedException {
			JdbcLeaseStore store = JdbcLeaseWaiting.this.store;
			StoreInterrupts interrupts = JdbcLeaseWaiting.this.interrupts;
			Queued asking = this.queued;
			long answerBy = answerBy();
			try {
				Granted picked = interrupts
					.givingUp(() -> store.calls.answeringBy(answerBy, () -> store.pickUp(this.key, asking)));
				return (picked != null) ? picked : interrupts.givingUp(
						() -> store.calls.answeringBy(answerBy, () -> store.ask(this.key, this.holder, asking, false)));
			}
			catch (StoreInterrupts.GaveUp ex) {
				throw giveUp(new InterruptedException(ex.getMessage()));
			}
			catch (LeaseHostException ex) {
				// A caller that gets no answer must not be handed the key later.
				throw Withdrawals.failed(store.calls.threads.executor(), ex, neededUntil(), answerBy,
						() -> store.ask(this.key, this.holder, asking, true));
			}
		}

		// An interrupted waiter withdraws at once, a grant handed to it meanwhile given
		// back, and throws InterruptedException (Host semantics). It withdraws before it
		// returns, so that no release can hand it the key afterwards, and on the
		// withdrawal connection, so that a busy pool does not keep it waiting (on a
		// pooled
		// one when the database refuses another); Withdrawals bounds its wait.
		private InterruptedException giveUp(InterruptedException interrupt) {
			Queued asking = this.queued;
			return Withdrawals.giveUp(JdbcLeaseWaiting.this.store.calls.threads.executor(), interrupt, neededUntil(),
					() -> JdbcLeaseWaiting.this.store.ask(this.key, this.holder, asking, true));
		}

		// When a question must have been answered (Host: silence).
		private long answerBy() {
			return Withdrawals.answerBy(boundAt());
		}

		// Until when a withdrawal is needed: a grant handed to the waiter before its
		// bound
		// stands for its duration.
		private long neededUntil() {
			return boundNanoTime() + Micros.toNanos(this.durationMicros);
		}

		// The waiter's bound on this JVM's timer, from the last answer the host gave it:
		// after it, no release can hand the waiter the key.
		private long boundNanoTime() {
			return boundAt();
		}

	}

}
