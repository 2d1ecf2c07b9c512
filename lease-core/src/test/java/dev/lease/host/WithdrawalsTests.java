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

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHostException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link Withdrawals}.
 *
 * @author Lease contributors
 */
class WithdrawalsTests {

	private static final long FAR_BOUND = TimeUnit.MINUTES.toNanos(10);

	// Past the caller's four tries, so that a failing withdrawal goes on without it and
	// stops soon.
	private static final long NEAR_BOUND = TimeUnit.MILLISECONDS.toNanos(1_500);

	private final AtomicInteger calls = new AtomicInteger();

	private final HostThreads threads = new HostThreads("test", null, null);

	@AfterEach
	void clearInterrupt() {
		Thread.interrupted();
		this.threads.close();
	}

	@Test
	@DisplayName("Host: withdrawal: a withdrawal that goes through is made once")
	void withdrawOnceWhenItGoesThrough() {
		assertThat(Withdrawals.withdraw(this.threads.executor(), System.nanoTime() + FAR_BOUND,
				this.calls::incrementAndGet))
			.isNull();
		assertThat(this.calls).hasValue(1);
	}

	@Test
	@DisplayName("Host: withdrawal: the caller waits while a failing withdrawal is tried four times, and it goes on until the bound has passed")
	void withdrawTriesFourTimesForTheCallerAndGoesOnUntilTheBound() throws Exception {
		long bound = System.nanoTime() + NEAR_BOUND;
		LeaseHostException failure = Withdrawals.withdraw(this.threads.executor(), bound, this::fail);
		assertThat(failure).hasMessage("failure 4");
		awaitPast(bound);
		int tried = this.calls.get();
		assertThat(tried).isGreaterThan(Withdrawals.ATTEMPTS);
		TimeUnit.MILLISECONDS.sleep(1_500);
		assertThat(this.calls).as("tries after the bound").hasValue(tried);
	}

	@Test
	@DisplayName("Host: withdrawal: a withdrawal the caller stopped waiting for is written later, and then no more tried")
	void withdrawGoesOnUntilWritten() throws Exception {
		Runnable failingSixTimes = () -> {
			if (this.calls.incrementAndGet() <= 6) {
				throw new LeaseHostException("failure " + this.calls.get());
			}
		};
		long started = System.nanoTime();
		LeaseHostException answered = Withdrawals.withdraw(this.threads.executor(), System.nanoTime() + FAR_BOUND,
				failingSixTimes);
		long waited = System.nanoTime() - started;
		// The caller waits for four tries, or for its patience where a loaded machine
		// makes four tries outlast it.
		if (!"failure 4".equals(answered.getMessage())) {
			assertThat(answered)
				.hasMessageMatching("failure [1-3]|The store did not answer the withdrawal within PT2S");
			assertThat(waited).as("gave up before the fourth try")
				.isGreaterThanOrEqualTo(Withdrawals.PATIENCE.toNanos());
		}
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (this.calls.get() < 7 && System.nanoTime() < deadline) {
			TimeUnit.MILLISECONDS.sleep(20);
		}
		TimeUnit.MILLISECONDS.sleep(1_500);
		assertThat(this.calls).hasValue(7);
	}

	@Test
	@DisplayName("Host: interruption: a caller waits for its withdrawal no longer than the patience, however long the store keeps the call")
	void withdrawWaitsNoLongerThanThePatience() {
		CountDownLatch answer = new CountDownLatch(1);
		long started = System.nanoTime();
		LeaseHostException failure = Withdrawals.withdraw(this.threads.executor(), System.nanoTime() + FAR_BOUND,
				() -> {
					this.calls.incrementAndGet();
					awaitUninterruptibly(answer);
				});
		long waited = System.nanoTime() - started;
		answer.countDown();
		assertThat(failure).hasMessageContaining("did not answer");
		assertThat(waited).isGreaterThanOrEqualTo(Withdrawals.PATIENCE.toNanos());
		assertThat(this.calls).hasValue(1);
	}

	@Test
	@DisplayName("Host: withdrawal: past the waiter's bound no release can hand it the key, so a failure is not retried")
	void withdrawTriesOnceAfterTheBound() {
		assertThat(Withdrawals.withdraw(this.threads.executor(), System.nanoTime() - 1, this::fail))
			.hasMessage("failure 1");
		assertThat(this.calls).hasValue(1);
	}

	@Test
	@DisplayName("Host: withdrawal: a withdrawal that goes through on a later try answers withdrawn")
	void withdrawAnswersWithdrawnAfterARetry() {
		Runnable failingOnce = () -> {
			if (this.calls.incrementAndGet() == 1) {
				throw new LeaseHostException("failure 1");
			}
		};
		assertThat(Withdrawals.withdraw(this.threads.executor(), System.nanoTime() + FAR_BOUND, failingOnce)).isNull();
		assertThat(this.calls).hasValue(2);
	}

	@Test
	@DisplayName("Host: interruption: the pauses pause, and the interrupt is set again")
	void withdrawKeepsAPendingInterrupt() {
		Thread.currentThread().interrupt();
		long started = System.nanoTime();
		Withdrawals.withdraw(this.threads.executor(), System.nanoTime() + NEAR_BOUND, this::fail);
		assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(350));
		assertThat(Thread.currentThread().isInterrupted()).isTrue();
	}

	@Test
	@DisplayName("Host: interruption: a withdrawn waiter throws its interrupt, the flag cleared")
	void giveUpAnswersTheInterruptOnceWithdrawn() {
		Thread.currentThread().interrupt();
		InterruptedException interrupt = new InterruptedException("stop");
		assertThat(Withdrawals.giveUp(this.threads.executor(), interrupt, System.nanoTime() + FAR_BOUND,
				this.calls::incrementAndGet))
			.isSameAs(interrupt);
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		assertThat(this.calls).hasValue(1);
	}

	@Test
	@DisplayName("Host: interruption: a waiter that could not be withdrawn says its outcome is unknown, caused by its interrupt")
	void giveUpThrowsAFailureCausedByTheInterruptWhenNotWithdrawn() {
		InterruptedException interrupt = new InterruptedException("stop");
		assertThatExceptionOfType(LeaseHostException.class)
			.isThrownBy(() -> Withdrawals.giveUp(this.threads.executor(), interrupt, System.nanoTime() - 1, this::fail))
			.withMessageContaining("failure 1")
			.withCause(interrupt)
			.satisfies((ex) -> assertThat(ex.getSuppressed()).singleElement()
				.satisfies((suppressed) -> assertThat(suppressed).hasMessage("failure 1")));
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
	}

	@Test
	@DisplayName("Host: withdrawal: a waiter without an answer is withdrawn, a failed withdrawal kept with the failure")
	void failedWithdrawsAndKeepsTheFailure() {
		LeaseHostException failure = new LeaseHostException("no answer");
		assertThat(Withdrawals.failed(this.threads.executor(), failure, System.nanoTime() + FAR_BOUND,
				this.calls::incrementAndGet))
			.isSameAs(failure)
			.satisfies((ex) -> assertThat(ex.getSuppressed()).isEmpty());
		LeaseHostException second = new LeaseHostException("no answer");
		assertThat(Withdrawals.failed(this.threads.executor(), second, System.nanoTime() - 1, this::fail))
			.isSameAs(second)
			.satisfies((ex) -> assertThat(ex.getSuppressed()).hasSize(1));
	}

	private static void awaitPast(long nanoTime) throws InterruptedException {
		for (long left = nanoTime - System.nanoTime(); left > 0; left = nanoTime - System.nanoTime()) {
			TimeUnit.NANOSECONDS.sleep(left);
		}
		// the pause under way at the bound, and the last try after it, end
		TimeUnit.MILLISECONDS.sleep(1_300);
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		while (true) {
			try {
				latch.await();
				return;
			}
			catch (InterruptedException ex) {
				// the test lets it go
			}
		}
	}

	private void fail() {
		throw new LeaseHostException("failure " + this.calls.incrementAndGet());
	}

}
