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
import java.util.concurrent.TimeoutException;

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

	// How often a wait for an answer looks again at the time the test lost.
	static final Duration POLL = Duration.ofMillis(50);

	private final ExecutorService threads = Executors.newCachedThreadPool();

	abstract LeaseHostConformanceKit kit();

	private Stalls stalls;

	@BeforeEach
	void warmUp() throws Exception {
		kit().warmUp();
		this.stalls = new Stalls();
	}

	@AfterEach
	void stopThreads() throws InterruptedException {
		this.stalls.close();
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
	}

	final LeaseHost host() {
		return kit().host();
	}

	// The kit's tolerance and the time this test has lost to a loaded machine so far:
	// read it after the events it bounds.
	final Duration tolerance() {
		return kit().tolerance().plus(this.stalls.lost());
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
		return new TimedTake(result, elapsed, this.stalls);
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
	 * @param stalls the time the test lost to the machine
	 */
	record TimedTake(CompletableFuture<TakeResult> result, CompletableFuture<Duration> elapsed, Stalls stalls) {

		// Waits the given time and as much again as the machine takes from the test
		// meanwhile.
		TakeResult answer(Duration within) throws Exception {
			long asked = System.nanoTime();
			Duration lostBefore = this.stalls.lost();
			while (true) {
				long allowed = within.plus(this.stalls.lost().minus(lostBefore)).toNanos();
				long left = allowed - (System.nanoTime() - asked);
				if (left <= 0) {
					throw new TimeoutException("no answer within " + within + " and the "
							+ this.stalls.lost().minus(lostBefore) + " the machine took meanwhile");
				}
				try {
					return this.result.get(Math.min(left, POLL.toNanos()), TimeUnit.NANOSECONDS);
				}
				catch (TimeoutException ex) {
					// Not answered yet: look again at what the machine has taken.
				}
			}
		}

		Duration took() throws Exception {
			return this.elapsed.get(1, TimeUnit.MINUTES);
		}

	}

}
