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

import java.time.Instant;
import java.util.Optional;

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
 * The JDBC host's waiting protocol (DESIGN §4): a take queues the caller at the database,
 * sleeps until woken or no longer than it may, then picks up a grant handed to it or asks
 * where it stands; at its bound, on an interrupt, or when the database gives no answer,
 * it withdraws. Waiters are woken by PostgreSQL {@code LISTEN/NOTIFY} when a listener
 * runs, elsewhere by polling with a short bounded backoff, and on every database by a
 * release made through the same host.
 *
 * @author Lease contributors
 */
final class JdbcLeaseWaiting {

	private static final long FIRST_BACKOFF_MICROS = 2_000;

	private static final long MAXIMUM_BACKOFF_MICROS = 100_000;

	private final JdbcLeaseStore store;

	private final Wakeups<LeaseKey, Long> wakeups;

	private final StoreInterrupts interrupts;

	private final PickedUpWaiters pickedUp;

	private final @Nullable PostgresNotificationListener listener;

	JdbcLeaseWaiting(JdbcLeaseStore store, Wakeups<LeaseKey, Long> wakeups, StoreInterrupts interrupts,
			PickedUpWaiters pickedUp, @Nullable PostgresNotificationListener listener) {
		this.store = store;
		this.wakeups = wakeups;
		this.interrupts = interrupts;
		this.pickedUp = pickedUp;
		this.listener = listener;
	}

	TakeResult take(LeaseKey key, LeaseHolder holder, long durationMicros) throws InterruptedException {
		PostgresNotificationListener listener = this.listener;
		if (listener != null) {
			if (listener.start()) {
				// Only the take that starts the listener waits for it, briefly; until it
				// listens, waiters poll.
				listener.awaitFirstListen(1000);
			}
		}
		// Subscribe before asking a question whose answer we may sleep on.
		Wakeups.Signal<Long> signal = this.wakeups.register(key);
		try {
			TakeAnswer entered;
			try {
				entered = this.interrupts.givingUp(() -> this.store.enter(key, holder, durationMicros, true));
			}
			catch (StoreInterrupts.GaveUp ex) {
				// Interrupted before anything was sent: nothing stands for us.
				Thread.interrupted();
				throw new InterruptedException(ex.getMessage());
			}
			if (entered instanceof Queued queued) {
				return await(key, holder, durationMicros, queued, signal);
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

	private TakeResult await(LeaseKey key, LeaseHolder holder, long durationMicros, Queued entered,
			Wakeups.Signal<Long> signal) throws InterruptedException {
		Queued queued = entered;
		long backoff = FIRST_BACKOFF_MICROS;
		while (true) {
			// Sleep no longer than the standing grant's remaining term, half our own
			// duration, and the time to our bound; poll sooner without notifications.
			long sleep = Math.min(Math.min(queued.grantExpiresAt() - queued.now(), durationMicros / 2),
					queued.bound() - queued.now()) + 1_000;
			if (this.listener == null || !this.listener.isListening()) {
				sleep = Math.min(sleep, backoff);
				backoff = Math.min(backoff * 2, MAXIMUM_BACKOFF_MICROS);
			}
			try {
				signal.await(Micros.toNanos(Math.max(sleep, 1)));
			}
			catch (InterruptedException ex) {
				throw giveUp(key, holder, queued, ex);
			}
			Optional<Instant> handed = signal.handedTo(queued.waiterId());
			if (handed.isPresent() && this.listener != null) {
				// The committed handoff named us: take it without a round trip, and leave
				// our row, which nobody else reads, to the listener or our next release.
				this.pickedUp.add(queued.waiterId());
				return new Taken(new Lease(key, holder, handed.get()));
			}
			TakeAnswer answer;
			try {
				Queued asking = queued;
				Granted picked = this.interrupts.givingUp(() -> this.store.pickUp(key, asking));
				answer = (picked != null) ? picked
						: this.interrupts.givingUp(() -> this.store.ask(key, holder, asking, false));
			}
			catch (StoreInterrupts.GaveUp ex) {
				throw giveUp(key, holder, queued, new InterruptedException(ex.getMessage()));
			}
			catch (LeaseHostException ex) {
				// A caller that gets no answer must not be handed the key later.
				Queued asking = queued;
				throw Withdrawals.failed(ex, boundNanoTime(asking), () -> this.store.ask(key, holder, asking, true));
			}
			if (answer instanceof Granted granted) {
				return taken(key, holder, granted);
			}
			if (answer instanceof Queued stillQueued) {
				queued = stillQueued;
			}
			else {
				return new Unavailable();
			}
		}
	}

	// An interrupted waiter withdraws at once, a grant handed to it meanwhile given back,
	// and throws InterruptedException (DESIGN §4).
	private InterruptedException giveUp(LeaseKey key, LeaseHolder holder, Queued queued,
			InterruptedException interrupt) {
		return Withdrawals.giveUp(interrupt, boundNanoTime(queued), () -> this.store.ask(key, holder, queued, true));
	}

	// The waiter's bound on this JVM's timer, from the last answer the host gave it:
	// after it, no release can hand the waiter the key.
	private static long boundNanoTime(Queued queued) {
		return System.nanoTime() + Micros.toNanos(queued.bound() - queued.now());
	}

	static Taken taken(LeaseKey key, LeaseHolder holder, Granted granted) {
		return new Taken(new Lease(key, holder, Micros.toInstant(granted.expiresAt())));
	}

}
