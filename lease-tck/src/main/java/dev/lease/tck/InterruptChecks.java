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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.tck.history.HistoryChecker;
import dev.lease.tck.history.RecordingLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Interruption (Host semantics): an interrupted call either returns its answer, with the
 * thread's interrupt flag set again, or throws {@link InterruptedException} (only take
 * declares it), and then nothing stands for the caller: no queued waiter, no grant. A
 * ghost left behind holds the key for nobody, so no other holder can take it (Operation
 * 11, Invariant 1).
 *
 * @author Lease contributors
 */
abstract class InterruptChecks extends KitGroup {

	// More than a small client pool holds, so that some calls wait for a connection.
	private static final int WORKERS = 12;

	private static final Duration RUN = Duration.ofSeconds(3);

	// A grant left to a ghost would stand this long: far beyond every wait below.
	private static final Duration TERM = Duration.ofSeconds(30);

	private static final Duration ARRIVAL_SLACK = Duration.ofMillis(150);

	private static final int EXAMPLES = 5;

	@Test
	@DisplayName("Operation 11, Invariant 1, Host: interruption: take, try take, remaining and release interrupted at random points on one key answer with the flag set again or throw InterruptedException, and leave nothing standing for a caller who gave up")
	void interruptedCallsLeaveNothingStandingForTheCaller() throws Exception {
		LeaseKey key = newKey();
		RecordingLeaseHost recording = new RecordingLeaseHost(host());
		InterruptedRun run = new InterruptedRun(recording, key);
		run.start();
		elapse(RUN);
		run.stop(TERM.plus(tolerance()));
		Problems problems = run.problems;
		List<Lease> standing = standingAfter(key, tolerance());
		if (!standing.isEmpty()) {
			problems.add("grants still standing after every live holder released", standing.toString());
		}
		checkFreshTake(recording, key, problems);
		for (LeaseHolder holder : run.gaveUp) {
			Optional<Duration> remaining = recording.remaining(key, holder);
			if (remaining.isPresent()) {
				problems.add("remaining answered a term to a holder that gave up", holder + ": " + remaining.get());
			}
			if (!(recording.release(key, holder) instanceof NotHeld)) {
				problems.add("release by a holder that gave up found a grant to end", holder.toString());
			}
		}
		new HistoryChecker(kit().clockSkew(), tolerance(), ARRIVAL_SLACK).interruptsKnown()
			.violations(recording.history())
			.forEach((violation) -> problems.add("history checker", violation));
		if (!problems.isEmpty()) {
			throw new AssertionError("After " + run.interrupts.get() + " interrupts, " + run.interruptedTakes.get()
					+ " takes that threw InterruptedException and " + run.grants.get() + " grants:"
					+ System.lineSeparator() + problems);
		}
		assertThat(run.interruptedTakes.get()).as("takes that threw InterruptedException: the run interrupted nothing")
			.isPositive();
		assertThat(run.grants.get()).as("grants made during the run").isPositive();
	}

	// The grants on the key, once none stands or the time is up.
	private List<Lease> standingAfter(LeaseKey key, Duration within) {
		long deadline = System.nanoTime() + within.toNanos();
		while (true) {
			List<Lease> standing = host().grants(Integer.MAX_VALUE)
				.stream()
				.filter((lease) -> lease.key().equals(key))
				.toList();
			if (standing.isEmpty() || System.nanoTime() - deadline > 0) {
				return standing;
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
		}
	}

	// No ghost blocks the key: a fresh holder's take is granted promptly.
	private void checkFreshTake(RecordingLeaseHost recording, LeaseKey key, Problems problems) throws Exception {
		LeaseHolder fresh = newHolder("fresh");
		AtomicReference<Thread> taking = new AtomicReference<>();
		CompletableFuture<TakeResult> take = CompletableFuture.supplyAsync(() -> {
			taking.set(Thread.currentThread());
			try {
				return recording.take(key, fresh, TERM);
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		}, this::runInBackground);
		try {
			TakeResult answer = take.get(tolerance().toMillis(), TimeUnit.MILLISECONDS);
			if (!(answer instanceof Taken)) {
				problems.add("a fresh take was not granted", String.valueOf(answer));
			}
			else if (!(recording.release(key, fresh) instanceof Released)) {
				problems.add("the fresh holder's release ended nothing", fresh.toString());
			}
		}
		catch (TimeoutException ex) {
			problems.add("a fresh take was not granted within the tolerance: a ghost holds the key",
					tolerance().toString());
			taking.get().interrupt();
		}
	}

	/**
	 * Workers taking, try taking, asking and releasing on one key with fresh holders, and
	 * one thread interrupting them at random, each call checked as it returns.
	 */
	private final class InterruptedRun {

		private final RecordingLeaseHost host;

		private final LeaseKey key;

		private final List<Thread> workers = new ArrayList<>();

		// Interrupts delivered to each worker, counted in the same step as interrupt()
		// under the counter's monitor, which the worker holds while it reads its flag.
		private final AtomicLong[] delivered = new AtomicLong[WORKERS];

		private final Thread interrupter;

		private volatile boolean stopping;

		final Problems problems = new Problems();

		// Holders whose take or try take did not answer: nothing may stand for them.
		final ConcurrentLinkedQueue<LeaseHolder> gaveUp = new ConcurrentLinkedQueue<>();

		final AtomicLong interruptedTakes = new AtomicLong();

		final AtomicLong grants = new AtomicLong();

		final AtomicLong interrupts = new AtomicLong();

		InterruptedRun(RecordingLeaseHost host, LeaseKey key) {
			this.host = host;
			this.key = key;
			for (int i = 0; i < WORKERS; i++) {
				int worker = i;
				this.delivered[i] = new AtomicLong();
				this.workers.add(new Thread(() -> work(worker), "lease-tck-interrupted-" + i));
			}
			this.interrupter = new Thread(this::interrupt, "lease-tck-interrupter");
		}

		void start() {
			this.workers.forEach(Thread::start);
			this.interrupter.start();
		}

		// Stop: the workers finish their calls within the tolerance; those still waiting
		// then are interrupted until they return, so that the run ends in bounded time
		// even on a host that leaves the key to a ghost.
		void stop(Duration within) throws InterruptedException {
			this.stopping = true;
			this.interrupter.join();
			long grace = System.nanoTime() + tolerance().toNanos();
			for (Thread worker : this.workers) {
				worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(grace - System.nanoTime())));
			}
			long deadline = System.nanoTime() + within.toNanos();
			for (Thread worker : this.workers) {
				while (worker.isAlive() && System.nanoTime() - deadline < 0) {
					worker.interrupt();
					worker.join(100);
				}
				if (worker.isAlive()) {
					this.problems.add("a worker did not return", worker.getName() + " within " + within);
				}
			}
		}

		private void interrupt() {
			ThreadLocalRandom random = ThreadLocalRandom.current();
			while (!this.stopping) {
				LockSupport.parkNanos(random.nextLong(500_000, 2_000_000));
				int worker = random.nextInt(WORKERS);
				synchronized (this.delivered[worker]) {
					this.workers.get(worker).interrupt();
					this.delivered[worker].incrementAndGet();
				}
				this.interrupts.incrementAndGet();
			}
		}

		private void work(int worker) {
			ThreadLocalRandom random = ThreadLocalRandom.current();
			while (!this.stopping) {
				LeaseHolder holder = newHolder("interrupted" + worker);
				selfInterruptNowAndThen(random);
				int operation = random.nextInt(10);
				Object answer;
				if (operation < 6) {
					answer = call(worker, "take", holder, () -> this.host.take(this.key, holder, TERM));
				}
				else if (operation < 9) {
					answer = call(worker, "try take", holder, () -> this.host.tryTake(this.key, holder, TERM));
				}
				else {
					call(worker, "remaining", holder, () -> this.host.remaining(this.key, holder));
					selfInterruptNowAndThen(random);
					answer = call(worker, "release", holder, () -> this.host.release(this.key, holder));
				}
				if (answer instanceof Taken) {
					this.grants.incrementAndGet();
					hold(worker, holder, random);
				}
				else {
					LockSupport.parkNanos(random.nextLong(4_000_000, 10_000_000));
				}
			}
			Thread.interrupted();
		}

		private void hold(int worker, LeaseHolder holder, ThreadLocalRandom random) {
			LockSupport.parkNanos(random.nextLong(1_000_000, 3_000_000));
			selfInterruptNowAndThen(random);
			Object remaining = call(worker, "remaining", holder, () -> this.host.remaining(this.key, holder));
			if (remaining instanceof Optional<?> term && term.isEmpty()) {
				this.problems.add("remaining answered none to the holder", holder.toString());
			}
			selfInterruptNowAndThen(random);
			Object released = call(worker, "release", holder, () -> this.host.release(this.key, holder));
			if (released != null && !(released instanceof Released)) {
				this.problems.add("release by the holder did not answer released", holder + ": " + released);
			}
		}

		// An interrupt already pending when a call starts.
		private void selfInterruptNowAndThen(ThreadLocalRandom random) {
			if (random.nextInt(10) == 0) {
				Thread.currentThread().interrupt();
			}
		}

		// Make one call and check how it returned; answers null when it threw.
		private @Nullable Object call(int worker, String operation, LeaseHolder holder, Call call) {
			long before;
			boolean pending;
			synchronized (this.delivered[worker]) {
				before = this.delivered[worker].get();
				pending = Thread.currentThread().isInterrupted();
			}
			Object answer;
			try {
				answer = call.call();
			}
			catch (InterruptedException ex) {
				Thread.interrupted();
				if (operation.equals("take")) {
					this.interruptedTakes.incrementAndGet();
				}
				else {
					this.problems.add(operation + " threw InterruptedException, which it does not declare",
							holder.toString());
				}
				this.gaveUp.add(holder);
				return null;
			}
			catch (RuntimeException ex) {
				Thread.interrupted();
				if (operation.equals("take") && ex instanceof LeaseHostException
						&& ex.getCause() instanceof InterruptedException) {
					// Interrupted, its withdrawal not written within the host's patience:
					// it goes on, and the checks below find anything left standing.
					this.interruptedTakes.incrementAndGet();
				}
				else {
					this.problems.add(operation + " failed instead of answering or throwing InterruptedException",
							holder + ": " + causes(ex));
				}
				this.gaveUp.add(holder);
				return null;
			}
			// An interrupt and its count are one step: a count that moved means an
			// interrupt landed during the call, so the flag must be set now.
			boolean interrupted;
			boolean flagged;
			synchronized (this.delivered[worker]) {
				interrupted = pending || this.delivered[worker].get() != before;
				flagged = Thread.interrupted();
			}
			if (interrupted && !flagged) {
				this.problems.add(operation + " answered after an interrupt but cleared the interrupt flag",
						holder + ": " + answer);
			}
			return answer;
		}

		private static String causes(Throwable failure) {
			StringBuilder causes = new StringBuilder(failure.toString());
			for (Throwable cause = failure.getCause(); cause != null
					&& cause != cause.getCause(); cause = cause.getCause()) {
				causes.append(" <- ").append(cause);
			}
			return causes.toString();
		}

	}

	/**
	 * What went wrong, by kind, reported with a few examples of each.
	 */
	private static final class Problems {

		private final Map<String, List<String>> byKind = new LinkedHashMap<>();

		synchronized void add(String kind, String detail) {
			this.byKind.computeIfAbsent(kind, (k) -> new ArrayList<>()).add(detail);
		}

		synchronized boolean isEmpty() {
			return this.byKind.isEmpty();
		}

		@Override
		public synchronized String toString() {
			StringBuilder report = new StringBuilder();
			this.byKind.forEach((kind, details) -> {
				report.append(" - ").append(kind).append(": ").append(details.size()).append(System.lineSeparator());
				details.stream()
					.limit(EXAMPLES)
					.forEach((detail) -> report.append("     ").append(detail).append(System.lineSeparator()));
			});
			return report.toString();
		}

	}

	/**
	 * One call on the host.
	 */
	@FunctionalInterface
	private interface Call {

		Object call() throws InterruptedException;

	}

}
