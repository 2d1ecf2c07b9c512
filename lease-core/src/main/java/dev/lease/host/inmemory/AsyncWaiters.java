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

package dev.lease.host.inmemory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHolder;
import dev.lease.TakeResult;
import dev.lease.Unavailable;
import dev.lease.host.QueuedWaiter;

/**
 * The waiters of one key that wait without a thread, guarded by the key's lock: each is a
 * waiter of the key's one queue, like a blocking one, with a future in place of a
 * sleeping thread. A question whose saved state hands the key to one of them, or drops
 * it, settles it here; whoever unlocks the key completes the futures, outside the lock,
 * so that a caller's dependent stages never run under it. One alarm on the shared
 * scheduler stands for all of them: at the first instant one of them needs an answer
 * without anyone asking (the standing grant's instant, or a bound).
 *
 * @author Lease contributors
 */
final class AsyncWaiters {

	private final Map<Long, Waiter> waiters = new LinkedHashMap<>();

	private @Nullable List<Settlement> settled;

	// Whether the grant or the queue changed since the alarm was set.
	private boolean changed;

	private long alarmAt = Long.MAX_VALUE;

	private @Nullable ScheduledFuture<?> alarm;

	void add(Waiter waiter) {
		this.waiters.put(waiter.id, waiter);
		this.changed = true;
	}

	List<Waiter> waiters() {
		return List.copyOf(this.waiters.values());
	}

	boolean isEmpty() {
		return this.waiters.isEmpty();
	}

	// Take a waiter out without settling it, for a withdrawal: false when the host
	// settled it first.
	boolean withdraw(Waiter waiter) {
		if (this.waiters.remove(waiter.id) == null) {
			return false;
		}
		waiter.settled = true;
		this.changed = true;
		return true;
	}

	// The key was handed to a waiter: true when it was one of these, now settled.
	boolean handed(long waiterId, long expiresAt) {
		Waiter waiter = this.waiters.remove(waiterId);
		if (waiter == null) {
			return false;
		}
		settle(new Settlement(waiter, expiresAt));
		return true;
	}

	// A waiter left the queue without a grant (Non-goal 4).
	void dropped(QueuedWaiter dropped) {
		Waiter waiter = this.waiters.remove(dropped.id());
		if (waiter != null) {
			settle(new Settlement(waiter, null));
		}
	}

	void changed() {
		this.changed = true;
	}

	private void settle(Settlement settlement) {
		settlement.waiter.settled = true;
		if (this.settled == null) {
			this.settled = new ArrayList<>();
		}
		this.settled.add(settlement);
		this.changed = true;
	}

	// The waiters settled since the last call, to complete once the key is unlocked.
	List<Settlement> drain() {
		List<Settlement> drained = (this.settled != null) ? this.settled : List.of();
		this.settled = null;
		return drained;
	}

	/**
	 * Return the instant at which the alarm should next look at the key, when it must be
	 * set earlier than it is, else {@link Long#MAX_VALUE}; and forget the alarm when no
	 * waiter is left.
	 * @param grantExpiresAt the standing grant's instant, or the key's now when none
	 * stands
	 * @return the alarm's new instant, or {@link Long#MAX_VALUE} to leave it as it is
	 */
	long alarmToSet(long grantExpiresAt) {
		if (this.waiters.isEmpty()) {
			cancelAlarm();
			return Long.MAX_VALUE;
		}
		if (!this.changed) {
			return Long.MAX_VALUE;
		}
		this.changed = false;
		long wakeAt = grantExpiresAt;
		for (Waiter waiter : this.waiters.values()) {
			wakeAt = Math.min(wakeAt, waiter.bound);
		}
		return (wakeAt < this.alarmAt || this.alarm == null) ? wakeAt : Long.MAX_VALUE;
	}

	void alarmSet(long at, ScheduledFuture<?> alarm) {
		cancelAlarm();
		this.alarmAt = at;
		this.alarm = alarm;
	}

	// The alarm went off: the next one is set afresh.
	void alarmRang() {
		this.alarm = null;
		this.alarmAt = Long.MAX_VALUE;
		this.changed = true;
	}

	// The clock moved on by hand: the waiters are asked for now, and the alarm set
	// afresh from what they answer.
	void clockMoved() {
		cancelAlarm();
		this.changed = true;
	}

	private void cancelAlarm() {
		if (this.alarm != null) {
			this.alarm.cancel(false);
			this.alarm = null;
		}
		this.alarmAt = Long.MAX_VALUE;
	}

	/**
	 * A take waiting without a thread.
	 */
	static final class Waiter {

		final long id;

		final LeaseHolder holder;

		final long bound;

		final CompletableFuture<TakeResult> answer;

		/**
		 * Set, under the key's lock, once the host answered or the caller withdrew: the
		 * caller's cancellation then has nothing to withdraw.
		 */
		volatile boolean settled;

		Waiter(long id, LeaseHolder holder, long bound, CompletableFuture<TakeResult> answer) {
			this.id = id;
			this.holder = holder;
			this.bound = bound;
			this.answer = answer;
		}

	}

	/**
	 * A waiter's answer: the key handed to it, granted until {@code expiresAt}, or, when
	 * that is {@code null}, {@link Unavailable}.
	 *
	 * @param waiter the waiter
	 * @param expiresAt the grant's instant, or {@code null} when it was not granted
	 */
	record Settlement(Waiter waiter, @Nullable Long expiresAt) {

	}

}
