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

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.QueuedTakes;
import dev.lease.host.HandedGrant;
import dev.lease.host.KeyModel;
import dev.lease.host.Micros;
import dev.lease.host.QueuedWaiter;
import dev.lease.host.WaiterQueue;
import dev.lease.host.Wakeups;

/**
 * What the in-memory host stores for one key, guarded by the key's own lock: the grant,
 * the latest clock reading, the FIFO queue and the grants handed to waiters that have not
 * asked yet. Each question builds a {@link KeyModel} from it and saves back what the
 * model changed, as a database stores rows. The queue and the handed grants are made when
 * a first waiter needs them: a key that is only taken and released, the common case,
 * costs a lock and this object. Waiters of the non-blocking view stand in the same queue,
 * and are woken the same way.
 *
 * @author Lease contributors
 */
final class KeyState {

	private static final WaiterQueue NO_WAITERS = WaiterQueue.of(List.of());

	final LeaseKey key;

	final ReentrantLock lock = new ReentrantLock();

	/**
	 * What the saves since the last {@link #wakeUps} tell the sleeping waiters: the
	 * grants handed to them, and whether the head of the queue or the standing grant
	 * changed.
	 */
	private @Nullable List<Wakeups.Handoff<Long>> toWake;

	private boolean headMoved;

	/**
	 * Set once the state left the map; a thread that locks it must look the key up again.
	 */
	boolean retired;

	private @Nullable LeaseHolder holder;

	private long expiresAt;

	private long grantedAt;

	private long latest = Long.MIN_VALUE;

	private long arrivals;

	private @Nullable ArrayDeque<QueuedWaiter> queue;

	/** Grants handed to waiters, by waiter id, kept until the waiter asks. */
	private @Nullable Map<Long, Long> handed;

	private long lastWaiterId;

	KeyState(LeaseKey key) {
		this.key = key;
	}

	KeyModel model() {
		return new KeyModel(this.key, this.holder, this.expiresAt, this.grantedAt, this.latest, this.arrivals,
				(this.queue != null && !this.queue.isEmpty()) ? WaiterQueue.of(this.queue) : NO_WAITERS);
	}

	long nextWaiterId() {
		return ++this.lastWaiterId;
	}

	OptionalLong handedTo(long waiterId) {
		Long grantExpiresAt = (this.handed != null) ? this.handed.get(waiterId) : null;
		return (grantExpiresAt != null) ? OptionalLong.of(grantExpiresAt) : OptionalLong.empty();
	}

	// The waiter has its answer: nothing is kept for it any more.
	void forget(long waiterId) {
		if (this.handed != null) {
			this.handed.remove(waiterId);
		}
	}

	// Keep the question's clock reading only: it saves nothing else (Check 5.2).
	void saveClock(KeyModel model) {
		this.latest = model.latest();
	}

	// Write back the resolved state with the question's own change.
	void save(KeyModel model) {
		boolean grantChanged = !Objects.equals(this.holder, model.holder())
				|| (model.holder() != null && this.expiresAt != model.expiresAt());
		this.holder = model.holder();
		this.expiresAt = model.expiresAt();
		this.grantedAt = model.grantedAt();
		this.latest = model.latest();
		this.arrivals = model.arrivals();
		if (model.changed()) {
			if (this.queue == null) {
				this.queue = new ArrayDeque<>();
				this.handed = new HashMap<>();
			}
			model.dropped().forEach(this.queue::remove);
			for (HandedGrant handoff : model.handed()) {
				this.queue.remove(handoff.waiter());
				// The waiter is woken with it, and it is kept for the waiter until it
				// takes it up.
				this.handed.put(handoff.waiter().id(), handoff.expiresAt());
				if (this.toWake == null) {
					this.toWake = new ArrayList<>();
				}
				this.toWake.add(new Wakeups.Handoff<>(handoff.waiter().id(), Micros.toInstant(handoff.expiresAt())));
			}
			this.queue.addAll(model.added());
		}
		this.headMoved |= grantChanged || model.changed();
	}

	// What the saves named, read with the key's lock held, to be told once it is let go:
	// the sleeping waiters handed a grant, and the head of the queue when the standing
	// grant ends, on the host's clock as this key last read it. A waiter woken while the
	// lock is held would only wake to wait for it. Null when there is nothing to tell.
	@Nullable Runnable wakeUps(Wakeups<KeyState, Long> sleepers) {
		List<Wakeups.Handoff<Long>> handoffs = this.toWake;
		this.toWake = null;
		QueuedWaiter head = (this.queue != null) ? this.queue.peekFirst() : null;
		boolean headMoved = this.headMoved && head != null && this.holder != null;
		this.headMoved = false;
		if (handoffs == null && !headMoved) {
			return null;
		}
		long headId = headMoved ? head.id() : 0;
		long latest = this.latest;
		long readAt = System.nanoTime();
		Instant standingExpiresAt = Micros.toInstant(this.expiresAt);
		return () -> {
			if (handoffs != null) {
				sleepers.wake(this, handoffs);
			}
			if (headMoved) {
				sleepers.timer().answered(latest, readAt);
				sleepers.nextInLine(this, headId, standingExpiresAt);
			}
		};
	}

	// For operators: the waiters of the queue as the model derives it at now whose bound
	// has not passed, and when the first of them arrived; a waiter past its bound stays
	// queued until it or a handoff takes it out, and is not counted. Saves nothing, as
	// for the standing grant (Check 5.2); the key's lock is held.
	QueuedTakes waiting(KeyModel model, long now) {
		int stored = model.queued();
		// Resolving takes waiters from the head only: those a passed grant handed the key
		// to, and those dropped on the way, are the first stored - queued.
		model.resolve(now);
		long skipped = stored - model.queued();
		List<QueuedWaiter> waiting = (this.queue != null)
				? this.queue.stream().skip(skipped).filter((waiter) -> waiter.bound() >= now).toList() : List.of();
		return waiting.isEmpty() ? QueuedTakes.NONE
				: new QueuedTakes(waiting.size(), Micros.toInstant(waiting.get(0).arrivedAt()));
	}

	// Free at the later of the reading and the latest one saved.
	boolean isFree(long reading) {
		return (this.queue == null || this.queue.isEmpty())
				&& (this.holder == null || this.expiresAt <= Math.max(reading, this.latest));
	}

}
