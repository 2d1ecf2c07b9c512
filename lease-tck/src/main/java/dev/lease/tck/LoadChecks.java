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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.Taken;
import dev.lease.tck.history.Event;
import dev.lease.tck.history.HistoryChecker;
import dev.lease.tck.history.RecordingLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Racers on one key while every core is busy: a host whose statements are delayed between
 * reading its clock and writing a grant must still never answer two overlapping grants,
 * nor a grant dated before the call (Invariant 1.1, 1.2, Check 1.1).
 *
 * @author Lease contributors
 */
abstract class LoadChecks extends KitGroup {

	private static final int RACERS = 16;

	private static final Duration RUN = Duration.ofSeconds(4);

	// Terms short enough that many grants end during the run, by release and by expiry.
	private static final int SHORTEST_TERM_MILLIS = 20;

	private static final int LONGEST_TERM_MILLIS = 200;

	@Test
	@DisplayName("Check 1.1 (Invariant 1.1, 1.2): sixteen racers on one key with short terms, every core busy, never get overlapping grants nor a stale instant")
	void racersOnALoadedMachineNeverOverlap() throws Exception {
		LeaseKey key = newKey();
		RecordingLeaseHost recording = new RecordingLeaseHost(host());
		BusyCores busy = BusyCores.start();
		try {
			race(recording, key);
		}
		finally {
			busy.stop();
		}
		List<Event> history = recording.history();
		List<Event> grants = history.stream().filter((event) -> event.grant().isPresent()).toList();
		assertThat(grants).as("grants made").hasSizeGreaterThan(RACERS);
		assertThat(grants.stream().filter(this::isStale))
			.as("Fence 1, Invariant 1.2: Taken answered with an instant that had passed before the call was made")
			.isEmpty();
		// On a machine this loaded, a call may reach the host up to the tolerance
		// after the recorder read the clock: arrival order is judged only across
		// that much here (WaiterChecks and HistoryChecks judge it closely).
		assertThat(new HistoryChecker(kit().clockSkew(), tolerance(), tolerance()).violations(history))
			.as("violations in a history of %d events and %d grants", history.size(), grants.size())
			.isEmpty();
	}

	// A grant's instant can only lie before the call if the host dated it from a stale
	// reading of its clock.
	private boolean isStale(Event take) {
		return take.grant().orElseThrow().expiresAt().isBefore(take.invokedAt().minus(kit().clockSkew()));
	}

	private void race(RecordingLeaseHost recording, LeaseKey key) throws Exception {
		long end = System.nanoTime() + RUN.toNanos();
		ExecutorService racers = Executors.newFixedThreadPool(RACERS);
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int r = 0; r < RACERS; r++) {
				LeaseHolder holder = newHolder("racer" + r);
				running.add(racers.submit(() -> {
					while (System.nanoTime() < end) {
						raceOnce(recording, key, holder);
					}
					return null;
				}));
			}
			for (Future<?> racer : running) {
				racer.get(RUN.plus(tolerance()).plus(tolerance()).toMillis(), TimeUnit.MILLISECONDS);
			}
		}
		finally {
			racers.shutdownNow();
		}
	}

	// One attempt: two try takes to one take; a holder releases early or lets its term
	// pass, as a stalled holder would, at even odds. Passed terms and waiters are what
	// make a host's statements wait on each other.
	private void raceOnce(RecordingLeaseHost recording, LeaseKey key, LeaseHolder holder) throws InterruptedException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		Duration term = Duration.ofMillis(random.nextInt(SHORTEST_TERM_MILLIS, LONGEST_TERM_MILLIS + 1));
		boolean taken;
		try {
			taken = (random.nextInt(3) == 0) ? recording.take(key, holder, term) instanceof Taken
					: recording.tryTake(key, holder, term) instanceof Taken;
		}
		catch (ReentrantTakeException ex) {
			// The host's clock may not yet have passed a term this holder let pass.
			Thread.sleep(1);
			return;
		}
		if (!taken) {
			Thread.sleep(random.nextInt(3));
			return;
		}
		if (random.nextBoolean()) {
			Thread.sleep(term.plus(kit().clockSkew()).toMillis() + 1);
			return;
		}
		Thread.sleep(random.nextLong(term.toMillis() / 2 + 1));
		recording.release(key, holder);
	}

	/**
	 * A thread spinning on every core until stopped, so that the host's own threads and
	 * statements are delayed at arbitrary points.
	 */
	private static final class BusyCores {

		private final List<Thread> threads = new ArrayList<>();

		private volatile boolean stopped;

		static BusyCores start() {
			BusyCores busy = new BusyCores();
			for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
				Thread thread = new Thread(busy::spin, "busy-core-" + i);
				thread.setDaemon(true);
				busy.threads.add(thread);
				thread.start();
			}
			return busy;
		}

		private void spin() {
			while (!this.stopped) {
				Thread.onSpinWait();
			}
		}

		void stop() throws InterruptedException {
			this.stopped = true;
			for (Thread thread : this.threads) {
				thread.join(TimeUnit.SECONDS.toMillis(10));
			}
		}

	}

}
