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

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.Unavailable;
import dev.lease.host.Withdrawals;
import dev.lease.host.redis.RedisScriptAnswer.Granted;
import dev.lease.host.redis.RedisScriptAnswer.Queued;
import dev.lease.host.redis.RedisScriptAnswer.TakeAnswer;
import dev.lease.host.redis.RedisScriptAnswer.WaiterAnswer;
import dev.lease.host.redis.RedisWakeups.Signal;

/**
 * The waiting protocol of a {@link RedisLeaseHost}'s take (DESIGN §4): a waiter queued at
 * the server under a ticket of its own sleeps until a handoff wakes it or, at the latest,
 * the earlier of the standing grant's remaining term and half its own duration, then asks
 * where it stands; at its bound it asks once more, "withdraw me, or tell me I was
 * granted". An interrupt withdraws it at once, a grant handed to it at that moment given
 * back, and throws {@link InterruptedException}.
 *
 * @author Lease contributors
 */
final class RedisLeaseWaiting {

	private static final SecureRandom random = new SecureRandom();

	private final RedisLeaseStore store;

	private final RedisWakeups wakeups;

	RedisLeaseWaiting(RedisLeaseStore store, RedisWakeups wakeups) {
		this.store = store;
		this.wakeups = wakeups;
	}

	TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		byte[] redisKey = this.store.redisKey(key);
		String wakeKey = new String(redisKey, StandardCharsets.US_ASCII);
		byte[] ticket = ticket();
		// Subscribed before asking: a handoff published after we are queued wakes us.
		Signal signal = this.wakeups.register(wakeKey);
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
				return await(key, holder, duration, redisKey, ticket, signal, queued.toBound(),
						queued.standingRemaining());
			}
			throw new ReentrantTakeException(key, holder);
		}
		finally {
			this.wakeups.unregister(wakeKey, signal);
		}
	}

	private TakeResult await(LeaseKey key, LeaseHolder holder, Duration duration, byte[] redisKey, byte[] ticket,
			Signal signal, long toBound, long standing) throws InterruptedException {
		long halfDuration = Math.max(1, duration.toNanos() / 2000);
		while (true) {
			// Sleep to the earlier of the standing grant's remaining term and half our
			// duration, or to just past our bound; the server judges, not this clock.
			long asked = System.nanoTime();
			long sleep = Math.min(Math.min(standing, halfDuration), toBound + 1);
			try {
				signal.await(sleep);
			}
			catch (InterruptedException ex) {
				throw Withdrawals.giveUp(ex, asked + toBound * 1000, () -> this.store.settle(redisKey, ticket, true));
			}
			long handed = signal.handedTo(new String(ticket, StandardCharsets.US_ASCII));
			if (handed >= 0) {
				// The release published that it handed the key to us: no need to ask.
				return new Taken(this.store.confirm(redisKey, new Lease(key, holder, RedisScriptAnswer.instant(handed)),
						ticket));
			}
			boolean atBound = (System.nanoTime() - asked) / 1000 > toBound;
			WaiterAnswer answer;
			try {
				answer = atBound ? this.store.settle(redisKey, ticket, false) : this.store.ask(redisKey, ticket);
			}
			catch (RedisCalls.GaveUp ex) {
				throw Withdrawals.giveUp(new InterruptedException(ex.getMessage()), asked + toBound * 1000,
						() -> this.store.settle(redisKey, ticket, true));
			}
			catch (LeaseHostException ex) {
				// A caller that gets no answer must not be handed the key later.
				throw Withdrawals.failed(ex, asked + toBound * 1000, () -> this.store.settle(redisKey, ticket, true));
			}
			if (answer instanceof Granted granted) {
				return new Taken(this.store.confirm(redisKey, new Lease(key, holder, granted.instant()), ticket));
			}
			if (answer instanceof Queued queued) {
				toBound = queued.toBound();
				standing = queued.standingRemaining();
				continue;
			}
			return new Unavailable();
		}
	}

	private static byte[] ticket() {
		byte[] bytes = new byte[12];
		random.nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).getBytes(StandardCharsets.US_ASCII);
	}

}
