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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHostException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link LazyStart}.
 *
 * @author Lease contributors
 */
class LazyStartTests {

	private static final String CLOSED = "The test host is closed";

	private final AtomicInteger starts = new AtomicInteger();

	@Test
	@DisplayName("Host: failures: a start that fails leaves the host unstarted, and the next call starts it")
	void startThatFailsIsTriedAgainAtTheNextCall() {
		LazyStart<Parts> lazy = new LazyStart<>(() -> {
			if (this.starts.incrementAndGet() == 1) {
				throw new LeaseHostException("The store is unreachable");
			}
			return new Parts();
		}, CLOSED);
		assertThatExceptionOfType(LeaseHostException.class).isThrownBy(lazy::get)
			.withMessage("The store is unreachable");
		assertThat(lazy.isStarted()).isFalse();
		Parts parts = lazy.get();
		assertThat(lazy.isStarted()).isTrue();
		assertThat(lazy.get()).isSameAs(parts);
		assertThat(this.starts).hasValue(2);
	}

	@Test
	@DisplayName("Host: failures: a host closed before it started never starts, each call saying it is closed")
	void closedHostNeverStarts() {
		LazyStart<Parts> lazy = new LazyStart<>(() -> {
			this.starts.incrementAndGet();
			return new Parts();
		}, CLOSED);
		lazy.close();
		assertThatExceptionOfType(LeaseHostException.class).isThrownBy(lazy::get).withMessage(CLOSED);
		assertThatExceptionOfType(LeaseHostException.class).isThrownBy(lazy::get).withMessage(CLOSED);
		assertThat(lazy.isStarted()).isFalse();
		assertThat(this.starts).hasValue(0);
	}

	@Test
	@DisplayName("Host: failures: a close during a start waits for it and closes what it built, once")
	void closeDuringAStartClosesTheLateParts() throws Exception {
		CountDownLatch building = new CountDownLatch(1);
		CountDownLatch finish = new CountDownLatch(1);
		Parts late = new Parts();
		LazyStart<Parts> lazy = new LazyStart<>(() -> {
			building.countDown();
			await(finish);
			return late;
		}, CLOSED);
		CompletableFuture<Parts> start = CompletableFuture.supplyAsync(lazy::get);
		await(building);
		Thread closing = new Thread(lazy::close);
		closing.start();
		// the close waits at the start's lock while the parts are being built
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (closing.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
			Thread.onSpinWait();
		}
		assertThat(closing.getState()).isEqualTo(Thread.State.WAITING);
		assertThat(late.closes).hasValue(0);
		finish.countDown();
		closing.join(TimeUnit.SECONDS.toMillis(10));
		assertThat(closing.isAlive()).isFalse();
		assertThat(start.get(10, TimeUnit.SECONDS)).isSameAs(late);
		assertThat(late.closes).hasValue(1);
		lazy.close();
		assertThat(late.closes).hasValue(1);
	}

	@Test
	@DisplayName("Host: failures: concurrent first calls build the parts once and all answer with them")
	void concurrentFirstCallsBuildOnce() throws Exception {
		CountDownLatch callers = new CountDownLatch(8);
		LazyStart<Parts> lazy = new LazyStart<>(() -> {
			this.starts.incrementAndGet();
			await(callers);
			return new Parts();
		}, CLOSED);
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<Parts>> answers = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				answers.add(executor.submit(() -> {
					callers.countDown();
					return lazy.get();
				}));
			}
			Parts first = answers.get(0).get(10, TimeUnit.SECONDS);
			for (Future<Parts> answer : answers) {
				assertThat(answer.get(10, TimeUnit.SECONDS)).isSameAs(first);
			}
			assertThat(this.starts).hasValue(1);
		}
		finally {
			executor.shutdownNow();
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			assertThat(latch.await(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	static final class Parts implements AutoCloseable {

		final AtomicInteger closes = new AtomicInteger();

		@Override
		public void close() {
			this.closes.incrementAndGet();
		}

	}

}
