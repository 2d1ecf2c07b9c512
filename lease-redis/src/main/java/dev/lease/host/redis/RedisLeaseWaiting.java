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
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.host.BlockingWaiter;
import dev.lease.host.GaveUp;
import dev.lease.host.WaiterMachine;
import dev.lease.host.WaiterStore;
import dev.lease.host.Wakeups;
import dev.lease.host.redis.RedisScriptAnswer.Granted;
import dev.lease.host.redis.RedisScriptAnswer.Queued;
import dev.lease.host.redis.RedisScriptAnswer.TakeAnswer;
import dev.lease.host.redis.RedisScriptAnswer.WaiterAnswer;

/**
 * The blocking take of a {@link RedisLeaseHost} (Host semantics): a waiter queued at the
 * server under a ticket of its own waits through the host kit's {@link WaiterMachine},
 * which decides when it sleeps and asks; this class supplies the script's questions. At
 * its bound it asks once more, "withdraw me, or tell me I was granted" ({@code settle});
 * an interrupt or a question with no answer withdraws it, a grant handed to it at that
 * moment given back.
 * <p>
 * Waiters register with the host kit's {@link Wakeups}, by Redis key and ticket. Redis
 * answers terms from its own now rather than instants; an answer's terms are placed on
 * this JVM's timer from the moment it is in, as a handoff message's are.
 *
 * @author Lease contributors
 */
final class RedisLeaseWaiting {

	// A ticket is this JVM's random part then a count: unique among this JVM's waiters,
	// and drawn without reading the system's random source, which a caller on a thread
	// that must not block (a non-blocking take's) cannot do.
	private static final long JVM_PART = new SecureRandom().nextLong();

	private static final AtomicLong tickets = new AtomicLong(new SecureRandom().nextLong());

	private final RedisLeaseStore store;

	// a waiter's first question waits for its slot's
	private final RedisHandoffSubscription subscription;

	private final Wakeups<String, String> wakeups;

	// runs the withdrawals of waiters that give up
	private final Executor executor;

	RedisLeaseWaiting(RedisLeaseStore store, RedisHandoffSubscription subscription, Wakeups<String, String> wakeups,
			Executor executor) {
		this.executor = executor;
		this.store = store;
		this.subscription = subscription;
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
				answer = this.store.take(redisKey, holder, duration, ticket, this.subscription);
			}
			catch (GaveUp ex) {
				// Interrupted before anything was sent: nothing stands for us.
				Thread.interrupted();
				throw new InterruptedException(ex.getMessage());
			}
			if (answer instanceof Granted granted) {
				return new Taken(this.store.confirm(redisKey, new Lease(key, holder, granted.instant()), null));
			}
			if (!(answer instanceof Queued queued)) {
				throw new ReentrantTakeException(key, holder);
			}
			WaiterStore questions = new WaiterStore() {

				@Override
				public dev.lease.host.TakeAnswer ask(boolean atBound, long answerBy) {
					RedisLeaseStore store = RedisLeaseWaiting.this.store;
					return kit(atBound ? store.settle(redisKey, ticket, false, answerBy)
							: store.ask(redisKey, ticket, answerBy), RedisLeaseWaiting.this.wakeups, wakeKey);
				}

				@Override
				public void withdraw() {
					RedisLeaseWaiting.this.store.settle(redisKey, ticket, true);
				}

				@Override
				public TakeResult taken(Instant expiresAt, boolean handed) {
					return new Taken(
							RedisLeaseWaiting.this.store.confirm(redisKey, new Lease(key, holder, expiresAt), ticket));
				}

			};
			return BlockingWaiter.await(signal, new WaiterMachine(signal, duration, null), kit(queued), questions,
					this.executor);
		}
		finally {
			this.wakeups.unregister(wakeKey, signal);
		}
	}

	/**
	 * Return a waiter's answer in the host kit's terms: Redis answers terms from its own
	 * now, which stands for the host's now of the answer. A queued answer that saw the
	 * standing grant handed to another waiter wakes it, should its message have been
	 * lost.
	 * @param answer the script's answer
	 * @param wakeups this JVM's waiters
	 * @param wakeKey the key as the waiters registered it
	 * @return the answer
	 */
	static dev.lease.host.TakeAnswer kit(WaiterAnswer answer, Wakeups<String, String> wakeups, String wakeKey) {
		if (answer instanceof Granted granted) {
			return new dev.lease.host.TakeAnswer.Granted(granted.expiresAt());
		}
		if (answer instanceof Queued queued) {
			if (queued.handed() != null) {
				wakeups.wake(wakeKey, List.of(queued.handed()));
			}
			return kit(queued);
		}
		return new dev.lease.host.TakeAnswer.Refused();
	}

	static dev.lease.host.TakeAnswer.Queued kit(Queued queued) {
		return new dev.lease.host.TakeAnswer.Queued(0, queued.toBound(), 0, queued.standingRemaining(), queued.next());
	}

	static byte[] ticket() {
		byte[] bytes = ByteBuffer.allocate(16).putLong(JVM_PART).putLong(tickets.getAndIncrement()).array();
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).getBytes(StandardCharsets.US_ASCII);
	}

}
