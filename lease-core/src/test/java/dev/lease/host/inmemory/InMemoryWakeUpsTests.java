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
import java.time.InstantSource;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for when {@link InMemoryLeaseHost} wakes its waiters: a waiter's first step after
 * a handoff takes its grant up under the key's lock, so a wake-up told while the lock is
 * held would wake it only to wait for the lock.
 *
 * @author Lease contributors
 */
class InMemoryWakeUpsTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static final long WITHIN_SECONDS = 10;

	private final LeaseKey key = LeaseKey.of("wake-" + UUID.randomUUID());

	private final LeaseHolder holder = LeaseHolder.of("holder");

	private final LeaseHolder waiter = LeaseHolder.of("waiter");

	// The releasing thread, while it releases; the non-blocking waiter's step is
	// scheduled from the thread that wakes it.
	private final AtomicReference<Thread> releasing = new AtomicReference<>();

	private final List<Boolean> keyAnsweredAtWakeUp = new CopyOnWriteArrayList<>();

	private InMemoryLeaseHost host;

	private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1) {

		@Override
		public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
			if (Thread.currentThread() == InMemoryWakeUpsTests.this.releasing.get()) {
				InMemoryWakeUpsTests.this.keyAnsweredAtWakeUp.add(keyAnswersAnotherThread());
			}
			return super.schedule(command, delay, unit);
		}

	};

	@AfterEach
	void close() {
		this.host.close();
		this.scheduler.shutdownNow();
	}

	@Test
	@DisplayName("A release wakes the waiter it handed the key to once the key's lock is let go")
	void aReleaseWakesItsWaiterOnceTheKeysLockIsLetGo() throws Exception {
		this.host = new InMemoryLeaseHost(InstantSource.system(), this.scheduler);
		assertThat(this.host.tryTake(this.key, this.holder, TERM)).isInstanceOf(Taken.class);
		CompletableFuture<TakeResult> take = this.host.async().take(this.key, this.waiter, TERM).toCompletableFuture();
		// the take's first steps, scheduled before this, have run: the wake-up schedules
		// the
		// next
		this.scheduler.submit(() -> {
		}).get(WITHIN_SECONDS, TimeUnit.SECONDS);
		this.releasing.set(Thread.currentThread());
		this.host.release(this.key, this.holder);
		this.releasing.set(null);
		assertThat(take.get(WITHIN_SECONDS, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
		assertThat(this.keyAnsweredAtWakeUp).as("another thread's question of the key answered at the wake-up")
			.containsExactly(true);
	}

	// Whether another thread's question of the key is answered now: it waits for the
	// key's lock.
	private boolean keyAnswersAnotherThread() {
		FutureTask<?> question = new FutureTask<>(() -> this.host.remaining(this.key, this.waiter));
		new Thread(question, "wake-up-test-question").start();
		try {
			question.get(WITHIN_SECONDS, TimeUnit.SECONDS);
			return true;
		}
		catch (TimeoutException ex) {
			return false;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
