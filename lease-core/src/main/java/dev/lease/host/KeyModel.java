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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.host.TakeAnswer.Granted;
import dev.lease.host.TakeAnswer.Queued;
import dev.lease.host.TakeAnswer.Refused;

/**
 * The state of one key, Host semantics's one state model, and the decisions of the
 * operations on it: written once, in Java, for every host whose store runs Java inside
 * its atomic step (memory under the key's lock, JDBC in a transaction that locks the
 * key's row, third-party hosts).
 * <p>
 * A store builds one model per question from what it keeps, asks it, and writes back only
 * what the model recorded: the grant, the latest clock reading, the waiters
 * {@linkplain #handed() handed} the key, {@linkplain #dropped() dropped} or
 * {@linkplain #added() added}. A question with no change of its own (remaining, a release
 * by anyone but the holder, a waiter that is still queued) may write none of it: resolve
 * is deterministic, so the next question derives the same state again (State 3, Check
 * 5.2). A waiter's own question saves what resolving handed on, so that the waiters it
 * names are woken (Host: waking). The queue is read head first and only as far as a
 * question needs ({@link WaiterQueue}).
 * <p>
 * Instants and terms are microseconds ({@link Micros}) on the host's clock; a model
 * without a grant has a {@code null} holder. It lives inside one atomic step.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class KeyModel {

	/**
	 * How long, at the least, a store keeps a grant {@linkplain #handed() handed} to a
	 * waiter for it to ask, past the later of the grant's instant and the waiter's bound
	 * (a waiter that stalled, or whose message was lost and asks only at its bound, still
	 * learns it was granted, Operation 2): one minute, in microseconds. A store may keep
	 * it longer, never shorter.
	 */
	public static final long HANDED_KEPT_MICROS = 60_000_000L;

	private static final WaiterQueue NO_WAITERS = WaiterQueue.of(List.of());

	private final LeaseKey key;

	private @Nullable LeaseHolder holder;

	private long expiresAt;

	// When the grant began (Grants 8), 0 where the store kept none.
	private long grantedAt;

	private long latest;

	private long arrivals;

	private final WaiterQueue stored;

	// The queue as this question changes it, made when the question first reads a
	// stored waiter or queues one: a free key with nobody queued needs none.
	private @Nullable KeyModelQueue queue;

	// Made by the first handoff: most questions hand nothing on.
	private @Nullable List<HandedGrant> handed;

	/**
	 * Create the model of a key as its store keeps it.
	 * @param key the key
	 * @param holder the holder of the stored grant, or {@code null} when none is stored
	 * @param expiresAt the stored grant's instant; not read without a holder
	 * @param grantedAt when the stored grant began, or 0 when the store kept none
	 * @param latest the latest clock reading saved for the key, or {@link Long#MIN_VALUE}
	 * @param arrivals how many waiters have arrived, to number the next one
	 * @param queue the key's waiters
	 */
	public KeyModel(LeaseKey key, @Nullable LeaseHolder holder, long expiresAt, long grantedAt, long latest,
			long arrivals, WaiterQueue queue) {
		this.key = key;
		this.holder = holder;
		this.expiresAt = expiresAt;
		this.grantedAt = grantedAt;
		this.latest = latest;
		this.arrivals = arrivals;
		this.stored = queue;
	}

	/**
	 * Create the model of a key that has nothing stored.
	 * @param key the key
	 * @return the model of a free key with nobody queued
	 */
	public static KeyModel free(LeaseKey key) {
		return new KeyModel(key, null, 0, 0, Long.MIN_VALUE, 0, NO_WAITERS);
	}

	/**
	 * Return the key's now for a reading of the host's clock: the later of the reading
	 * and the latest one saved for the key, kept as the latest. A clock that steps back
	 * never brings an ended grant back to life (Host: one clock, Invariant 2.1).
	 * @param reading the clock's reading
	 * @return the key's now
	 */
	public long now(long reading) {
		this.latest = Math.max(this.latest, reading);
		return this.latest;
	}

	/**
	 * Derive the state at now (State 2): each passed grant hands the key to the first
	 * waiter whose bound has not passed, granted as of the instant the key became free;
	 * waiters whose bound had passed by then are dropped (Operation 2, Non-goal 3, 4).
	 * @param now the key's now
	 */
	public void resolve(long now) {
		while (this.holder != null && this.expiresAt <= now) {
			handOn(this.expiresAt);
		}
	}

	/**
	 * Take the key: granted at once when it is free at now; else refused for a try, or
	 * the caller queued with its bound fixed at the standing grant's instant (Operation
	 * 1–7, Invariant 4). A queued entry of the same holder whose bound has passed is
	 * replaced.
	 * @param holder the holder taking
	 * @param duration the term asked for
	 * @param now the key's now
	 * @param waits whether the caller waits ({@code take}) or not ({@code tryTake})
	 * @param waiterIds the store's ids for a new waiter, asked only when one is queued
	 * @return granted, refused or queued
	 * @throws ReentrantTakeException if the holder holds the key or waits for it within
	 * its bound (Non-goal 1); nothing is changed then
	 */
	public TakeAnswer take(LeaseHolder holder, long duration, long now, boolean waits, LongSupplier waiterIds) {
		resolve(now);
		if (this.holder == null) {
			this.holder = holder;
			this.expiresAt = now + duration;
			this.grantedAt = now;
			return new Granted(this.expiresAt);
		}
		List<QueuedWaiter> waiting = queue().waitersOf(holder);
		if (holder.equals(this.holder) || waiting.stream().anyMatch((waiter) -> now <= waiter.bound())) {
			throw new ReentrantTakeException(this.key, holder);
		}
		waiting.forEach(queue()::remove);
		if (!waits) {
			return new Refused();
		}
		QueuedWaiter waiter = new QueuedWaiter(waiterIds.getAsLong(), holder, duration, this.expiresAt, ++this.arrivals,
				now);
		queue().add(waiter);
		return new Queued(waiter.id(), waiter.bound(), now, this.expiresAt, queue().size() == 1);
	}

	/**
	 * Answer the remaining term of the asking holder (Operation 8, 9): nothing for the
	 * store to save.
	 * @param holder the asking party
	 * @param now the key's now
	 * @return the remaining term, or empty when the party does not hold the key
	 */
	public Optional<Duration> remaining(LeaseHolder holder, long now) {
		resolve(now);
		return holder.equals(this.holder) ? Optional.of(Micros.toDuration(this.expiresAt - now)) : Optional.empty();
	}

	/**
	 * Release the asking holder's grant: ended at now and handed to the first waiter
	 * whose bound has not passed, granted as of now (Operation 11–13).
	 * @param holder the asking party
	 * @param now the key's now
	 * @return whether the grant was released; when not, the store saves nothing (Check
	 * 5.2)
	 */
	public boolean release(LeaseHolder holder, long now) {
		resolve(now);
		if (!holder.equals(this.holder)) {
			return false;
		}
		handOn(now);
		return true;
	}

	/**
	 * Answer a queued waiter where it stands (Host semantics): granted, when the key was
	 * handed to it now or before; withdrawn past its bound, when it gives up, or when it
	 * is no longer queued (Non-goal 4); otherwise still queued, with nothing of its own
	 * for the store to save. A waiter that gives up and was handed the key gives the
	 * grant back, so nothing is left held by a caller who gave up.
	 * @param waiterId the waiter's id
	 * @param holder the waiter's holder
	 * @param handedBefore the instant of a grant an earlier question handed the waiter,
	 * as the store kept it
	 * @param now the key's now
	 * @param givingUp whether the waiter withdraws whatever its bound ("withdraw me, or
	 * tell me I was granted")
	 * @return granted, refused (withdrawn) or queued
	 */
	public TakeAnswer ask(long waiterId, LeaseHolder holder, OptionalLong handedBefore, long now, boolean givingUp) {
		resolve(now);
		OptionalLong granted = handedBefore;
		for (HandedGrant handoff : handed()) {
			if (handoff.waiter().id() == waiterId) {
				granted = OptionalLong.of(handoff.expiresAt());
			}
		}
		if (granted.isPresent()) {
			if (givingUp && holder.equals(this.holder) && this.expiresAt == granted.getAsLong()) {
				handOn(now);
			}
			return new Granted(granted.getAsLong());
		}
		QueuedWaiter waiter = queue().find(waiterId);
		if (waiter == null) {
			return new Refused();
		}
		if (givingUp || now > waiter.bound()) {
			queue().remove(waiter);
			return new Refused();
		}
		QueuedWaiter head = queue().head();
		return new Queued(waiterId, waiter.bound(), now, (this.holder != null) ? this.expiresAt : now,
				head != null && head.id() == waiterId);
	}

	// End the standing grant at freedAt and hand the key to the first waiter in arrival
	// order whose bound has not passed (Non-goal 3, 4). A bound equal to the instant
	// still takes the key (Operation 2 before Operation 4). The instants a key frees at
	// only grow, so a waiter dropped here could never have been handed the key later.
	private void handOn(long freedAt) {
		if (this.queue == null && this.stored.size() == 0) {
			this.holder = null;
			return;
		}
		QueuedWaiter waiter;
		while ((waiter = queue().pollHead()) != null) {
			if (waiter.bound() >= freedAt) {
				this.holder = waiter.holder();
				this.expiresAt = freedAt + waiter.duration();
				this.grantedAt = freedAt;
				if (this.handed == null) {
					this.handed = new ArrayList<>();
				}
				this.handed.add(new HandedGrant(waiter, this.expiresAt));
				return;
			}
			queue().dropped(waiter);
		}
		this.holder = null;
	}

	private KeyModelQueue queue() {
		if (this.queue == null) {
			this.queue = new KeyModelQueue(this.stored);
		}
		return this.queue;
	}

	/**
	 * Return the key.
	 * @return the key
	 */
	public LeaseKey key() {
		return this.key;
	}

	/**
	 * Return the holder of the grant, as resolved so far.
	 * @return the holder, or {@code null} when no grant stands
	 */
	public @Nullable LeaseHolder holder() {
		return this.holder;
	}

	/**
	 * Return the grant's instant; meaningless without a {@link #holder() holder}.
	 * @return the grant's instant
	 */
	public long expiresAt() {
		return this.expiresAt;
	}

	/**
	 * Return when the grant began (Grants 8), meaningless without a holder.
	 * @return the grant's start, or 0 when the store kept none
	 */
	public long grantedAt() {
		return this.grantedAt;
	}

	/**
	 * Return the latest clock reading for the key, to save with it.
	 * @return the latest reading
	 */
	public long latest() {
		return this.latest;
	}

	/**
	 * Return how many waiters have arrived, to save with the key.
	 * @return the count of arrivals
	 */
	public long arrivals() {
		return this.arrivals;
	}

	/**
	 * Return the waiter at the head of the queue now: the next in line when the standing
	 * grant ends, to be told when that is.
	 * @return the head of the queue, or {@code null} when nobody is queued
	 */
	public @Nullable QueuedWaiter head() {
		return (this.queue == null && this.stored.size() == 0) ? null : queue().head();
	}

	/**
	 * Return how many waiters are queued.
	 * @return the queue's length
	 */
	public int queued() {
		return (this.queue != null) ? this.queue.size() : this.stored.size();
	}

	/**
	 * Return whether the key is free at now with nobody queued, so that a store may keep
	 * nothing for it.
	 * @param now the key's now
	 * @return whether nothing needs to be stored for the key
	 */
	public boolean isFree(long now) {
		return queued() == 0 && (this.holder == null || this.expiresAt <= now);
	}

	/**
	 * Return the grants this question handed to waiters, in order: each to be kept for
	 * its waiter until it asks, even past its instant.
	 * @return the handoffs
	 */
	public List<HandedGrant> handed() {
		return (this.handed != null) ? Collections.unmodifiableList(this.handed) : List.of();
	}

	/**
	 * Return the stored waiters this question took out of the queue without a grant.
	 * @return the dropped waiters
	 */
	public List<QueuedWaiter> dropped() {
		return (this.queue != null) ? this.queue.dropped() : List.of();
	}

	/**
	 * Return the waiters this question queued, for the store to store.
	 * @return the added waiters
	 */
	public List<QueuedWaiter> added() {
		return (this.queue != null) ? this.queue.added() : List.of();
	}

	/**
	 * Return whether this question changed the queue: handed, dropped or added a waiter.
	 * @return whether the queue changed
	 */
	public boolean changed() {
		return (this.handed != null && !this.handed.isEmpty()) || (this.queue != null && this.queue.changed());
	}

}
