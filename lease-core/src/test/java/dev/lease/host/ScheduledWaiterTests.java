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
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The non-blocking driver of the waiter machine, on a store the test answers: one take,
 * one give-back site, and withdrawals that do not wait for the take's thread.
 */
class ScheduledWaiterTests {

	private static final long HOST_NOW = 1_700_000_000_000_000L;

	private static final Instant EXPIRES_AT = Instant.parse("2026-03-01T12:00:00Z");

	private final ScheduledThreadPoolExecutor steps = new ScheduledThreadPoolExecutor(1);

	private final Wakeups<String, Long> wakeups = new Wakeups<>();

	private final Wakeups.Signal<Long> signal = this.wakeups.register("key", 1L);

	private final Store store = new Store();

	private final ScheduledWaiter waiter = new ScheduledWaiter(this.signal,
			new WaiterMachine(this.signal, Duration.ofSeconds(30), null), this.store, this.steps::schedule,
			() -> this.wakeups.unregister("key", this.signal));

	@AfterEach
	void stop() {
		this.steps.shutdownNow();
	}

	private static TakeAnswer.Queued queued() {
		return new TakeAnswer.Queued(1, HOST_NOW + 60_000_000, HOST_NOW, HOST_NOW + 20_000_000, false);
	}

	// Every step submitted before this call has run.
	private void stepsRun() throws Exception {
		this.steps.submit(() -> {
		}).get(30, TimeUnit.SECONDS);
	}

	@Test
	@DisplayName("A wake-up while a handed grant is answered takes it once and never gives it back")
	void aWakeUpWhileTheGrantIsAnsweredTakesItOnce() throws Exception {
		this.waiter.start(CompletableFuture.completedFuture(queued()));
		stepsRun();
		this.wakeups.wake("key", List.of(new Wakeups.Handoff<>(1L, EXPIRES_AT)));
		stepsRun();
		this.wakeups.wakeAll();
		this.wakeups.wakeAll();
		stepsRun();
		this.store.confirmation.complete(new Taken(new Lease(LeaseKey.of("key"), LeaseHolder.of("h"), EXPIRES_AT)));
		assertThat(this.waiter.answer().get(30, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
		stepsRun();
		assertThat(this.store.taken).as("grants answered").hasValue(1);
		assertThat(this.store.givenBack).as("grants given back").hasValue(0);
	}

	@Test
	@DisplayName("A take cancelled while queued is withdrawn on the cancelling thread, before cancel returns")
	void aCancelledTakeIsWithdrawnAtOnce() throws Exception {
		this.waiter.start(CompletableFuture.completedFuture(queued()));
		stepsRun();
		this.waiter.answer().cancel(false);
		assertThat(this.store.withdrawn).hasValue(1);
		stepsRun();
		assertThat(this.wakeups.isEmpty()).as("the waiter left").isTrue();
	}

	@Test
	@DisplayName("A grant answered to a take cancelled while its first question was out is given back")
	void aGrantAnsweredAfterTheCancelIsGivenBack() throws Exception {
		CompletableFuture<TakeAnswer> enter = new CompletableFuture<>();
		this.waiter.start(enter);
		this.waiter.answer().cancel(false);
		this.store.confirmation.complete(new Taken(new Lease(LeaseKey.of("key"), LeaseHolder.of("h"), EXPIRES_AT)));
		enter.complete(new TakeAnswer.Granted(Micros.of(EXPIRES_AT)));
		stepsRun();
		stepsRun();
		assertThat(this.store.givenBack).hasValue(1);
	}

	@Test
	@DisplayName("A question the store does not answer withdraws the waiter and fails the take with the store's failure")
	void aFailedQuestionWithdrawsAndFails() throws Exception {
		this.store.answer.completeExceptionally(new LeaseHostException("silent"));
		this.waiter.start(CompletableFuture.completedFuture(queued()));
		this.wakeups.wake("key", List.of());
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> this.waiter.answer().get(30, TimeUnit.SECONDS))
			.withRootCauseInstanceOf(LeaseHostException.class)
			.withMessageContaining("silent");
		assertThat(this.store.withdrawn).hasValue(1);
	}

	private static final class Store implements ScheduledWaiter.Questions {

		final CompletableFuture<TakeResult> confirmation = new CompletableFuture<>();

		final CompletableFuture<TakeAnswer> answer = new CompletableFuture<>();

		final AtomicInteger taken = new AtomicInteger();

		final AtomicInteger givenBack = new AtomicInteger();

		final AtomicInteger withdrawn = new AtomicInteger();

		@Override
		public CompletionStage<TakeAnswer> ask(boolean atBound, long answerBy) {
			return this.answer;
		}

		@Override
		public CompletionStage<?> withdraw() {
			this.withdrawn.incrementAndGet();
			return CompletableFuture.completedFuture(null);
		}

		@Override
		public CompletionStage<TakeResult> taken(Instant expiresAt, boolean handed) {
			this.taken.incrementAndGet();
			return this.confirmation;
		}

		@Override
		public void giveBack() {
			this.givenBack.incrementAndGet();
		}

	}

}
