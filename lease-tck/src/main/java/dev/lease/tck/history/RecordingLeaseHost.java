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

package dev.lease.tck.history;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.QueuedTakes;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.TryTakeResult;
import dev.lease.tck.history.Event.Call;

/**
 * A host that records every call made through it, with its times on the JVM's monotonic
 * clock (mapped to instants from one reading of the system clock), for the
 * {@link HistoryChecker}.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class RecordingLeaseHost implements LeaseHost {

	private final LeaseHost host;

	private final Instant origin;

	private final long originNanos;

	private final LongSupplier nanos;

	private final ConcurrentLinkedQueue<Event> events;

	/**
	 * Record the calls made to the given host.
	 * @param host the host
	 */
	public RecordingLeaseHost(LeaseHost host) {
		this(host, Instant::now, System::nanoTime);
	}

	RecordingLeaseHost(LeaseHost host, Supplier<Instant> system, LongSupplier nanos) {
		this(host, new Anchor(system, nanos), nanos);
	}

	private RecordingLeaseHost(LeaseHost host, Anchor anchor, LongSupplier nanos) {
		this(host, anchor.origin, anchor.originNanos, nanos, new ConcurrentLinkedQueue<>());
	}

	private RecordingLeaseHost(LeaseHost host, Instant origin, long originNanos, LongSupplier nanos,
			ConcurrentLinkedQueue<Event> events) {
		this.host = host;
		this.origin = origin;
		this.originNanos = originNanos;
		this.nanos = nanos;
		this.events = events;
	}

	/**
	 * Record the calls made to another host on the same server (another connection,
	 * another instance) into this history, on the same clock, so that one check covers
	 * both.
	 * @param other the other host
	 * @return a host recording into this history
	 */
	public RecordingLeaseHost alongside(LeaseHost other) {
		return new RecordingLeaseHost(other, this.origin, this.originNanos, this.nanos, this.events);
	}

	/**
	 * Return the events recorded so far, in the order they were answered.
	 * @return the history
	 */
	public List<Event> history() {
		return List.copyOf(this.events);
	}

	/**
	 * Add an event this host did not see, such as a grant a child process obtained on the
	 * same server, timed on this history's clock with {@link #now()}.
	 * @param event the event
	 */
	public void add(Event event) {
		this.events.add(event);
	}

	/**
	 * Return the current reading of this history's clock: the JVM's monotonic clock,
	 * mapped to an instant.
	 * @return the reading
	 */
	public Instant now() {
		return this.origin.plusNanos(this.nanos.getAsLong() - this.originNanos);
	}

	/**
	 * Record a {@link Call#QUEUED queued observation} if the given look at the host's
	 * state finds the holder's take on the key queued: proof for the
	 * {@link HistoryChecker} that the take had reached the host by the time the look
	 * ended, whenever it was called.
	 * @param key the key
	 * @param holder the holder whose take is looked for
	 * @param look reads the host's state and answers whether the holder waits for the key
	 * within its bound: a stored waiter whose bound has passed may be one a returned take
	 * left behind, and proves nothing
	 * @return whether the take was seen queued
	 */
	public boolean observeQueued(LeaseKey key, LeaseHolder holder, BooleanSupplier look) {
		Instant from = now();
		boolean queued = look.getAsBoolean();
		if (queued) {
			this.events.add(new Event(Call.QUEUED, key, holder, null, from, now(), null, null));
		}
		return queued;
	}

	@Override
	public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		Instant invoked = now();
		try {
			TakeResult answer = this.host.take(key, holder, duration);
			record(Call.TAKE, key, holder, duration, invoked, answer, null);
			return answer;
		}
		catch (RuntimeException | InterruptedException ex) {
			record(Call.TAKE, key, holder, duration, invoked, null, ex);
			throw ex;
		}
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		Instant invoked = now();
		try {
			TryTakeResult answer = this.host.tryTake(key, holder, duration);
			record(Call.TRY_TAKE, key, holder, duration, invoked, answer, null);
			return answer;
		}
		catch (RuntimeException ex) {
			record(Call.TRY_TAKE, key, holder, duration, invoked, null, ex);
			throw ex;
		}
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		Instant invoked = now();
		try {
			Optional<Duration> answer = this.host.remaining(key, holder);
			record(Call.REMAINING, key, holder, null, invoked, answer, null);
			return answer;
		}
		catch (RuntimeException ex) {
			record(Call.REMAINING, key, holder, null, invoked, null, ex);
			throw ex;
		}
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		Instant invoked = now();
		try {
			ReleaseResult answer = this.host.release(key, holder);
			record(Call.RELEASE, key, holder, null, invoked, answer, null);
			return answer;
		}
		catch (RuntimeException ex) {
			record(Call.RELEASE, key, holder, null, invoked, null, ex);
			throw ex;
		}
	}

	@Override
	public List<Lease> grants(int limit) {
		return this.host.grants(limit);
	}

	@Override
	public GrantsPage grants(@Nullable String cursor, int limit) {
		return this.host.grants(cursor, limit);
	}

	@Override
	public Optional<Lease> grant(LeaseKey key) {
		return this.host.grant(key);
	}

	@Override
	public Optional<QueuedTakes> waiting(LeaseKey key) {
		return this.host.waiting(key);
	}

	@Override
	public Optional<Instant> grantedAt(Lease grant) {
		return this.host.grantedAt(grant);
	}

	private void record(Call call, LeaseKey key, LeaseHolder holder, @Nullable Duration duration, Instant invoked,
			@Nullable Object answer, @Nullable Throwable failure) {
		this.events.add(new Event(call, key, holder, duration, invoked, now(), answer, failure));
	}

	/**
	 * The system clock's reading that the monotonic clock is mapped from. A pause between
	 * the two readings (a collection, a preempted thread) would put every recorded time
	 * off by its length, beyond the checker's skew: the system clock is read between two
	 * monotonic readings, a few times, and the closest pair is kept.
	 */
	private static final class Anchor {

		private static final int TRIES = 5;

		private static final long CLOSE_NANOS = 50_000;

		private final Instant origin;

		private final long originNanos;

		Anchor(Supplier<Instant> system, LongSupplier nanos) {
			long before = nanos.getAsLong();
			Instant origin = system.get();
			long closest = nanos.getAsLong() - before;
			long originNanos = before + closest / 2;
			for (int i = 1; i < TRIES && closest > CLOSE_NANOS; i++) {
				before = nanos.getAsLong();
				Instant reading = system.get();
				long gap = nanos.getAsLong() - before;
				if (gap < closest) {
					closest = gap;
					origin = reading;
					originNanos = before + gap / 2;
				}
			}
			this.origin = origin;
			this.originNanos = originNanos;
		}

	}

}
