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

	private final AtomicInteger calls = new AtomicInteger();

	@AfterEach
	void clearInterrupt() {
		Thread.interrupted();
	}

	@Test
	@DisplayName("Host: withdrawal: a withdrawal that goes through is made once")
	void withdrawOnceWhenItGoesThrough() {
		assertThat(Withdrawals.withdraw(System.nanoTime() + FAR_BOUND, this.calls::incrementAndGet)).isNull();
		assertThat(this.calls).hasValue(1);
	}

	@Test
	@DisplayName("Host: withdrawal: a failing withdrawal is tried four times while the bound has not passed")
	void withdrawTriesFourTimesBeforeTheBound() {
		LeaseHostException failure = Withdrawals.withdraw(System.nanoTime() + FAR_BOUND, this::fail);
		assertThat(failure).hasMessage("failure 4");
		assertThat(this.calls).hasValue(Withdrawals.ATTEMPTS);
	}

	@Test
	@DisplayName("Host: withdrawal: past the waiter's bound no release can hand it the key, so a failure is not retried")
	void withdrawTriesOnceAfterTheBound() {
		assertThat(Withdrawals.withdraw(System.nanoTime() - 1, this::fail)).hasMessage("failure 1");
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
		assertThat(Withdrawals.withdraw(System.nanoTime() + FAR_BOUND, failingOnce)).isNull();
		assertThat(this.calls).hasValue(2);
	}

	@Test
	@DisplayName("Host: interruption: the pauses pause, and the interrupt is set again")
	void withdrawKeepsAPendingInterrupt() {
		Thread.currentThread().interrupt();
		long started = System.nanoTime();
		Withdrawals.withdraw(System.nanoTime() + FAR_BOUND, this::fail);
		assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(350));
		assertThat(Thread.currentThread().isInterrupted()).isTrue();
	}

	@Test
	@DisplayName("Host: interruption: a withdrawn waiter throws its interrupt, the flag cleared")
	void giveUpAnswersTheInterruptOnceWithdrawn() {
		Thread.currentThread().interrupt();
		InterruptedException interrupt = new InterruptedException("stop");
		assertThat(Withdrawals.giveUp(interrupt, System.nanoTime() + FAR_BOUND, this.calls::incrementAndGet))
			.isSameAs(interrupt);
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		assertThat(this.calls).hasValue(1);
	}

	@Test
	@DisplayName("Host: interruption: a waiter that could not be withdrawn says its outcome is unknown")
	void giveUpThrowsTheStoreFailureWhenNotWithdrawn() {
		InterruptedException interrupt = new InterruptedException("stop");
		assertThatExceptionOfType(LeaseHostException.class)
			.isThrownBy(() -> Withdrawals.giveUp(interrupt, System.nanoTime() - 1, this::fail))
			.withMessage("failure 1")
			.satisfies((ex) -> assertThat(ex.getSuppressed()).containsExactly(interrupt));
	}

	@Test
	@DisplayName("Host: withdrawal: a waiter without an answer is withdrawn, a failed withdrawal kept with the failure")
	void failedWithdrawsAndKeepsTheFailure() {
		LeaseHostException failure = new LeaseHostException("no answer");
		assertThat(Withdrawals.failed(failure, System.nanoTime() + FAR_BOUND, this.calls::incrementAndGet))
			.isSameAs(failure)
			.satisfies((ex) -> assertThat(ex.getSuppressed()).isEmpty());
		LeaseHostException second = new LeaseHostException("no answer");
		assertThat(Withdrawals.failed(second, System.nanoTime() - 1, this::fail)).isSameAs(second)
			.satisfies((ex) -> assertThat(ex.getSuppressed()).hasSize(1));
	}

	private void fail() {
		throw new LeaseHostException("failure " + this.calls.incrementAndGet());
	}

}
