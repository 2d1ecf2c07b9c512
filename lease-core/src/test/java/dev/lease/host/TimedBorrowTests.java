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

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link TimedBorrow}: a borrow from a pool that waits without a limit ends at
 * the caller's instant, and what it lends later is given back.
 *
 * @author Lease contributors
 */
class TimedBorrowTests {

	private final HostThreads threads = new HostThreads("test", null, null);

	private final TimedBorrow borrow = new TimedBorrow(this.threads.executor());

	private final CountDownLatch lend = new CountDownLatch(1);

	private final CompletableFuture<String> givenBack = new CompletableFuture<>();

	@AfterEach
	void close() {
		this.lend.countDown();
		this.threads.close();
	}

	@Test
	void connectionLentBeforeTheInstantIsTheCallers() throws Exception {
		String connection = this.borrow.borrow(later(60_000), () -> "lent", this.givenBack::complete);
		assertThat(connection).isEqualTo("lent");
		assertThat(this.givenBack).isNotDone();
	}

	@Test
	void borrowThatOutlastsTheInstantFailsThenAndWhatItLendsLaterIsGivenBack() throws Exception {
		long answerBy = later(200);
		assertThatExceptionOfType(TimeoutException.class)
			.isThrownBy(() -> this.borrow.borrow(answerBy, this::lentOnSignal, this.givenBack::complete));
		assertThat(System.nanoTime()).isGreaterThanOrEqualTo(answerBy);
		assertThat(this.givenBack).isNotDone();
		this.lend.countDown();
		assertThat(this.givenBack.get(30, TimeUnit.SECONDS)).isEqualTo("lent late");
	}

	@Test
	void interruptEndsTheWaitAndWhatIsLentLaterIsGivenBack() throws Exception {
		Thread caller = Thread.currentThread();
		CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS).execute(caller::interrupt);
		assertThatExceptionOfType(InterruptedException.class)
			.isThrownBy(() -> this.borrow.borrow(later(60_000), this::lentOnSignal, this.givenBack::complete));
		this.lend.countDown();
		assertThat(this.givenBack.get(30, TimeUnit.SECONDS)).isEqualTo("lent late");
	}

	@Test
	void poolsOwnFailureReachesTheCaller() {
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> this.borrow.borrow(later(60_000), () -> {
			throw new IOException("refused");
		}, this.givenBack::complete)).withMessage("refused");
	}

	@Test
	void closedBorrowsOnTheCallersThread() throws Exception {
		this.threads.close();
		Thread caller = Thread.currentThread();
		assertThat(this.borrow.borrow(later(60_000), () -> Thread.currentThread() == caller, (lent) -> {
		})).isTrue();
	}

	private String lentOnSignal() throws InterruptedException {
		this.lend.await();
		return "lent late";
	}

	private static long later(long millis) {
		return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
	}

}
