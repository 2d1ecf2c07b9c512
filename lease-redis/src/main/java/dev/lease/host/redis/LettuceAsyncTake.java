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
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.host.ScheduledWaiter;
import dev.lease.host.TakeAnswer;
import dev.lease.host.WaiterMachine;
import dev.lease.host.Wakeups;
import dev.lease.host.redis.RedisScriptAnswer.Granted;
import dev.lease.host.redis.RedisScriptAnswer.Queued;

/**
 * One take of a {@link LettuceAsyncLeaseHost}: the script's questions for the host kit's
 * {@link ScheduledWaiter}, which waits through the same {@link WaiterMachine} as a
 * blocking waiter, step by step on the host's confined timer thread.
 * <p>
 * A cancelled take's withdrawal is written at once, on the cancelling thread, to the
 * factory's shared connection (the host checks that it is shared) that the take's own
 * script went out on: Redis runs it after that script and before any question the caller
 * asks once {@code cancel} has returned, however late this take's thread reads its
 * answers.
 *
 * @author Lease contributors
 */
final class LettuceAsyncTake implements ScheduledWaiter.Questions {

	private final LettuceAsyncLeaseHost host;

	private final LeaseKey key;

	private final LeaseHolder holder;

	private final Duration duration;

	private final byte[] redisKey;

	private final String wakeKey;

	private final byte[] ticket;

	private final ScheduledWaiter waiter;

	// Registered before asking, as a blocking waiter is.
	LettuceAsyncTake(LettuceAsyncLeaseHost host, LeaseKey key, LeaseHolder holder, Duration duration) {
		this.host = host;
		this.key = key;
		this.holder = holder;
		this.duration = duration;
		this.redisKey = host.store().redisKey(key);
		this.wakeKey = new String(this.redisKey, StandardCharsets.US_ASCII);
		this.ticket = RedisLeaseWaiting.ticket();
		Wakeups.Signal<String> signal = host.wakeups()
			.register(this.wakeKey, new String(this.ticket, StandardCharsets.US_ASCII));
		this.waiter = new ScheduledWaiter(signal, new WaiterMachine(signal, duration, null), this,
				host.timer()::schedule, () -> host.wakeups().unregister(this.wakeKey, signal));
	}

	CompletableFuture<TakeResult> answer() {
		return this.waiter.answer();
	}

	// The take is sent from the caller's thread, so that takes arrive in the order they
	// were made.
	void start() {
		this.waiter.start(this.host
			.runWaiter("take", this.redisKey,
					RedisScriptArguments.takeArguments(this.holder, this.duration, this.ticket))
			.thenApply(this::entered));
	}

	private TakeAnswer entered(List<Object> answered) {
		RedisScriptAnswer.TakeAnswer answer = RedisScriptAnswer.take(answered);
		if (answer instanceof Granted granted) {
			return new TakeAnswer.Granted(granted.expiresAt());
		}
		if (answer instanceof Queued queued) {
			return RedisLeaseWaiting.kit(queued);
		}
		throw new ReentrantTakeException(this.key, this.holder);
	}

	@Override
	public CompletionStage<TakeAnswer> ask(boolean atBound, long answerBy) {
		byte[][] question = atBound ? RedisScriptArguments.settleArguments(this.ticket, false)
				: RedisScriptArguments.askArguments(this.ticket);
		return this.host.runWaiter("take", this.redisKey, question, answerBy)
			.thenApply((answered) -> RedisLeaseWaiting.kit(RedisScriptAnswer.waiter(answered), this.host.wakeups(),
					this.wakeKey));
	}

	@Override
	public CompletionStage<?> withdraw() {
		return this.host.runWaiter("take", this.redisKey, RedisScriptArguments.settleArguments(this.ticket, true));
	}

	@Override
	public CompletionStage<TakeResult> taken(Instant expiresAt, boolean handed) {
		Lease lease = new Lease(this.key, this.holder, expiresAt);
		RedisLeaseStore store = this.host.store();
		if (!store.confirmBlocks()) {
			return CompletableFuture.completedFuture(new Taken(lease));
		}
		// Rare: the grant is given back or waits for replicas, on a thread of the host's.
		byte[] handedTicket = handed ? this.ticket : null;
		return CompletableFuture.supplyAsync(() -> new Taken(store.confirm(this.redisKey, lease, handedTicket)),
				this.host.executor());
	}

	// This JVM's waiter the grant goes to wakes at once, as at any release made here.
	@Override
	public void giveBack() {
		this.host.release(this.redisKey, this.holder);
	}

}
