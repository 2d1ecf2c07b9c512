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

package dev.lease.tck;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.TryTakeResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every group of the kit shares: the host, fresh keys and holders, the terms the
 * tests ask for, and waiters on their own threads.
 *
 * @author Lease contributors
 */
abstract class KitGroup {

	// A term that passes during a test.
	static final Duration SHORT = Duration.ofMillis(600);

	// A term that never passes during a test.
	static final Duration LONG = Duration.ofSeconds(60);

	// How far two readings of real time may disagree when one is the host's clock and the
	// other the JVM's: clock resolution and rate, not scheduling.
	static final Duration CLOCK_GRAIN = Duration.ofMillis(2);

	// Time for a take started on another thread to reach the host and stand in its queue,
	// where a test cannot ask whether it stands there; beyond it a waiter is late.
	static final Duration ARRIVAL = Duration.ofMillis(300);

	private final ExecutorService threads = Executors.newCachedThreadPool();

	abstract LeaseHostConformanceKit kit();

	@BeforeEach
	void warmUp() throws Exception {
		kit().warmUp();
	}

	@AfterEach
	void stopThreads() throws InterruptedException {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
	}

	final LeaseHost host() {
		return kit().host();
	}

	final Duration tolerance() {
		return kit().tolerance();
	}

	final void elapse(Duration duration) throws InterruptedException {
		kit().elapse(duration);
	}

	// Returns once the take of the holder, started on another thread, waits in the
	// host's queue for the key.
	final void arrived(LeaseKey key, LeaseHolder holder) throws InterruptedException {
		kit().awaitQueued(key, holder);
	}

	static LeaseKey newKey() {
		return LeaseKey.of("tck:" + UUID.randomUUID());
	}

	static LeaseHolder newHolder(String role) {
		return LeaseHolder.of(role + ":" + UUID.randomUUID());
	}

	final Lease taken(LeaseKey key, LeaseHolder holder, Duration duration) {
		TryTakeResult result = host().tryTake(key, holder, duration);
		assertThat(result.granted()).as("try take of a free key").isPresent();
		return result.granted().get();
	}

	// A take started on its own thread, timed from just before the call.
	final TimedTake takeInBackground(LeaseKey key, LeaseHolder holder, Duration duration) {
		return takeInBackground(key, holder, duration, System.nanoTime());
	}

	// A take timed from an earlier System.nanoTime() reading, such as one taken just
	// before
	// asking the host for the arrival term, so a lower bound on the wait holds exactly.
	final TimedTake takeInBackground(LeaseKey key, LeaseHolder holder, Duration duration, long started) {
		CompletableFuture<TakeResult> result = CompletableFuture.supplyAsync(() -> {
			try {
				return host().take(key, holder, duration);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}, this.threads);
		CompletableFuture<Duration> elapsed = result
			.handle((answer, failure) -> Duration.ofNanos(System.nanoTime() - started));
		return new TimedTake(result, elapsed);
	}

	final void runInBackground(Runnable task) {
		this.threads.execute(task);
	}

	// The instant a grant was made at: its instant less the term it was asked for.
	static Instant grantedAt(Lease lease, Duration duration) {
		return lease.expiresAt().minus(duration);
	}

	/**
	 * A take running on its own thread.
	 *
	 * @param result the answer
	 * @param elapsed the time from just before the call to the answer
	 */
	record TimedTake(CompletableFuture<TakeResult> result, CompletableFuture<Duration> elapsed) {

		TakeResult answer(Duration within) throws Exception {
			return this.result.get(within.toMillis(), TimeUnit.MILLISECONDS);
		}

		Duration took() throws Exception {
			return this.elapsed.get(1, TimeUnit.MINUTES);
		}

	}

}
