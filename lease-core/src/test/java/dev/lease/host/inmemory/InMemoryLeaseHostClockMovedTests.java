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

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.Unavailable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link InMemoryLeaseHost#clockMoved()}: waiting takes on a clock moved by
 * hand are answered when it moves, not after the real time they read from it.
 *
 * @author Lease contributors
 */
class InMemoryLeaseHostClockMovedTests {

	private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

	// Far longer than the bound on a real answer: a waiter that slept for the term it
	// read from the clock would fail the test, not pass it late.
	private static final Duration TERM = Duration.ofHours(1);

	private static final Duration WITHIN = Duration.ofSeconds(10);

	private final AtomicReference<Instant> now = new AtomicReference<>(START);

	private final InMemoryLeaseHost host = new InMemoryLeaseHost(this.now::get);

	private final LeaseKey key = LeaseKey.of("clock-" + UUID.randomUUID());

	private final LeaseHolder holder = LeaseHolder.of("holder");

	@Test
	@DisplayName("Operation 2: a blocking waiter is handed the key when the clock is moved past the holder's instant, granted as of that instant")
	void blockingWaiterIsHandedTheKeyWhenTheClockMovesPastTheInstant() {
		Lease held = ((Taken) this.host.tryTake(this.key, this.holder, TERM)).lease();
		LeaseHolder waiter = LeaseHolder.of("blocking");
		CompletableFuture<TakeResult> take = blockingTake(waiter);
		awaitQueued(waiter);
		move(TERM.plusSeconds(1));
		assertThat(answer(take)).isEqualTo(new Taken(new Lease(this.key, waiter, held.expiresAt().plus(TERM))));
	}

	@Test
	@DisplayName("Operation 2: a waiter without a thread is handed the key when the clock is moved past the holder's instant, granted as of that instant")
	void asyncWaiterIsHandedTheKeyWhenTheClockMovesPastTheInstant() {
		Lease held = ((Taken) this.host.tryTake(this.key, this.holder, TERM)).lease();
		LeaseHolder waiter = LeaseHolder.of("async");
		CompletableFuture<TakeResult> take = this.host.async().take(this.key, waiter, TERM);
		awaitQueued(waiter);
		move(TERM.plusSeconds(1));
		assertThat(answer(take)).isEqualTo(new Taken(new Lease(this.key, waiter, held.expiresAt().plus(TERM))));
	}

	@Test
	@DisplayName("Operation 4, Non-goal 4: waiters of both views whose bound the moved clock passed while the key was handed on are answered unavailable")
	void waitersPastTheirBoundAreUnavailableWhenTheClockMoves() {
		this.host.tryTake(this.key, this.holder, TERM);
		LeaseHolder first = LeaseHolder.of("first");
		CompletableFuture<TakeResult> firstTake = blockingTake(first);
		awaitQueued(first);
		LeaseHolder blocking = LeaseHolder.of("blocking");
		CompletableFuture<TakeResult> blockingTake = blockingTake(blocking);
		awaitQueued(blocking);
		LeaseHolder async = LeaseHolder.of("async");
		CompletableFuture<TakeResult> asyncTake = this.host.async().take(this.key, async, TERM);
		awaitQueued(async);
		move(TERM.plusSeconds(1));
		assertThat(answer(firstTake)).isInstanceOf(Taken.class);
		assertThat(answer(blockingTake)).isInstanceOf(Unavailable.class);
		assertThat(answer(asyncTake)).isInstanceOf(Unavailable.class);
	}

	private void move(Duration by) {
		this.now.updateAndGet((instant) -> instant.plus(by));
		this.host.clockMoved();
	}

	private CompletableFuture<TakeResult> blockingTake(LeaseHolder waiter) {
		return BlockingTakes.onThread(this.host, this.key, waiter, TERM);
	}

	private static TakeResult answer(CompletableFuture<TakeResult> take) {
		assertThat(take).succeedsWithin(WITHIN);
		return take.join();
	}

	// The holder waits for the key once a try take of its own is refused as re-entrant.
	private void awaitQueued(LeaseHolder queued) {
		long deadline = System.nanoTime() + WITHIN.toNanos();
		while (true) {
			try {
				this.host.tryTake(this.key, queued, TERM);
			}
			catch (ReentrantTakeException ex) {
				return;
			}
			assertThat(System.nanoTime() - deadline).as("queued within " + WITHIN).isNegative();
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
		}
	}

}
