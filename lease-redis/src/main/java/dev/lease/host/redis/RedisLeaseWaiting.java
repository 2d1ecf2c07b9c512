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

package dev.lease.host.redis;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.Unavailable;
import dev.lease.host.Wakeups;
import dev.lease.host.Withdrawals;
import dev.lease.host.redis.RedisScriptAnswer.Granted;
import dev.lease.host.redis.RedisScriptAnswer.Queued;
import dev.lease.host.redis.RedisScriptAnswer.TakeAnswer;
import dev.lease.host.redis.RedisScriptAnswer.WaiterAnswer;

/**
 * The waiting protocol of a {@link RedisLeaseHost}'s take (Host semantics): a waiter
 * queued at the server under a ticket of its own sleeps until a message names it (the key
 * was handed to it, or it is next in line and must ask when the standing grant ends, to
 * derive a handoff by expiry nobody writes) or, at the latest, its bound; at its bound it
 * asks once more, "withdraw me, or tell me I was granted". One waiter per key in this
 * JVM, the delegate, also asks at the earlier of the standing grant's remaining term and
 * half its own duration, so that a lost message costs latency, and asking costs the same
 * at any number of waiters. An interrupt withdraws it at once, a grant handed to it at
 * that moment given back, and throws {@link InterruptedException}.
 * <p>
 * Waiters register with the host kit's {@link Wakeups}, by Redis key and ticket. Redis
 * answers terms from its own now rather than instants, so the standing grant's end that a
 * waiter next in line keeps ({@link Wakeups.Signal#standingExpiresAt()}) is an instant on
 * this JVM's {@link System#nanoTime() timer} ({@link #onTimer(long)}), set from the
 * answer or message that told it.
 *
 * @author Lease contributors
 */
final class RedisLeaseWaiting {

	// A ticket is this JVM's random part then a count: unique among this JVM's waiters,
	// and drawn without reading the system's random source, which a caller on a thread
	// that must not block (a non-blocking take's) cannot do.
	private static final long JVM_PART = new SecureRandom().nextLong();

	private static final AtomicLong tickets = new AtomicLong(new SecureRandom().nextLong());

	// Asked this long after an instant, so as not to ask before Redis has passed it.
	private static final long LATE_NANOS = 1000;

	private final RedisLeaseStore store;

	private final Wakeups<String, String> wakeups;

	// runs the withdrawals of waiters that give up
	private final Executor executor;

	RedisLeaseWaiting(RedisLeaseStore store, Wakeups<String, String> wakeups, Executor executor) {
		this.executor = executor;
		this.store = store;
		this.wakeups = wakeups;
	}

	TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		byte[] redisKey = this.store.redisKey(key);
		String wakeKey = new String(redisKey, StandardCharsets.US_ASCII);
		byte[] ticket = ticket();
		// Registered before asking: a handoff published after we are queued wakes us.
		Wakeups.Signal<String> signal = this.wakeups.register(wakeKey, new String(ticket, StandardCharsets.US_ASCII));
		try {
			TakeAnswer answer;
			try {
				answer = this.store.take(redisKey, holder, duration, ticket);
			}
			catch (RedisCalls.GaveUp ex) {
				// Interrupted before anything was sent: nothing stands for us.
				Thread.interrupted();
				throw new InterruptedException(ex.getMessage());
			}
			if (answer instanceof Granted granted) {
				return new Taken(this.store.confirm(redisKey, new Lease(key, holder, granted.instant()), null));
			}
			if (answer instanceof Queued queued) {
				return await(key, holder, duration, redisKey, ticket, signal, queued);
			}
			throw new ReentrantTakeException(key, holder);
		}
		finally {
			this.wakeups.unregister(wakeKey, signal);
		}
	}

	private TakeResult await(LeaseKey key, LeaseHolder holder, Duration duration, byte[] redisKey, byte[] ticket,
			Wakeups.Signal<String> signal, Queued first) throws InterruptedException {
		String wakeKey = new String(redisKey, StandardCharsets.US_ASCII);
		long halfDuration = Math.max(1, duration.toNanos() / 2000);
		long asked = System.nanoTime();
		Queued queued = first;
		answered(signal, queued, asked);
		while (true) {
			// Sleep to just past our bound, or to the standing grant's end when next in
			// line, or (the delegate) to the re-ask; the server judges, not this clock.
			long boundAt = asked + queued.toBound() * 1000;
			long reaskAt = asked + Math.min(queued.standingRemaining(), halfDuration) * 1000;
			long wakeAt = Math.min(boundAt + LATE_NANOS, nextAskAt(signal));
			if (signal.delegate()) {
				wakeAt = Math.min(wakeAt, reaskAt);
			}
			try {
				signal.await(wakeAt - System.nanoTime());
			}
			catch (InterruptedException ex) {
				throw Withdrawals.giveUp(this.executor, ex, boundAt + duration.toNanos(),
						() -> this.store.settle(redisKey, ticket, true));
			}
			Instant handed = signal.handed();
			if (handed != null) {
				// The host published that it handed the key to us: no need to ask.
				return new Taken(this.store.confirm(redisKey, new Lease(key, holder, handed), ticket));
			}
			long now = System.nanoTime();
			boolean atBound = now > boundAt;
			if (!signal.takeAskNow() && !atBound && now < nextAskAt(signal) && !(signal.delegate() && now >= reaskAt)) {
				// woken to sleep to another instant: next in line, or made the delegate
				continue;
			}
			WaiterAnswer answer;
			try {
				long answerBy = Withdrawals.answerBy(boundAt);
				answer = atBound ? this.store.settle(redisKey, ticket, false, answerBy)
						: this.store.ask(redisKey, ticket, answerBy);
			}
			catch (RedisCalls.GaveUp ex) {
				throw Withdrawals.giveUp(this.executor, new InterruptedException(ex.getMessage()),
						boundAt + duration.toNanos(), () -> this.store.settle(redisKey, ticket, true));
			}
			catch (LeaseHostException ex) {
				// A caller that gets no answer must not be handed the key later.
				throw Withdrawals.failed(this.executor, ex, boundAt + duration.toNanos(), Withdrawals.answerBy(boundAt),
						() -> this.store.settle(redisKey, ticket, true));
			}
			if (answer instanceof Granted granted) {
				return new Taken(this.store.confirm(redisKey, new Lease(key, holder, granted.instant()), ticket));
			}
			if (!(answer instanceof Queued again)) {
				return new Unavailable();
			}
			asked = now;
			queued = again;
			answered(signal, queued, now);
			if (queued.handed() != null) {
				// another waiter here may have missed its message
				this.wakeups.wake(wakeKey, List.of(queued.handed()));
			}
		}
	}

	// Note where the answer says the waiter stands, on this JVM's timer.
	private static void answered(Wakeups.Signal<String> signal, Queued queued, long nanoTime) {
		signal.answered(queued.next(), onTimer(nanoTime + Math.max(0, queued.standingRemaining()) * 1000),
				onTimer(nanoTime));
	}

	// The System.nanoTime() at which this waiter, next in line, asks; or never.
	private static long nextAskAt(Wakeups.Signal<String> signal) {
		Instant ends = signal.standingExpiresAt();
		return (ends != null) ? nanoTime(ends) + LATE_NANOS : Long.MAX_VALUE;
	}

	/**
	 * Return a {@link System#nanoTime()} reading as an instant on this JVM's timer, the
	 * clock of the standing grant's end a waiter keeps.
	 * @param nanoTime the reading
	 * @return the instant
	 */
	static Instant onTimer(long nanoTime) {
		return Instant.ofEpochSecond(0, nanoTime);
	}

	static long nanoTime(Instant onTimer) {
		return onTimer.getEpochSecond() * 1_000_000_000L + onTimer.getNano();
	}

	static byte[] ticket() {
		byte[] bytes = ByteBuffer.allocate(16).putLong(JVM_PART).putLong(tickets.getAndIncrement()).array();
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).getBytes(StandardCharsets.US_ASCII);
	}

}
