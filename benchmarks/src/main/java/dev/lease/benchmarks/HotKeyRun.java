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

package dev.lease.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;

/**
 * One row of the hot-key benchmark: N waiters blocked in {@code take} on one key, queued
 * one after another, then handed the key one after another, each releasing as soon as it
 * is granted (or after a fixed hold). Reports what it sees and asserts nothing.
 * <p>
 * A waiter counts as queued when the host answers its own holder's {@code tryTake} with
 * {@link ReentrantTakeException} ("already waits for the key"), so arrival order is known
 * through the public API alone; only then is the next waiter started.
 *
 * @author Lease contributors
 */
final class HotKeyRun {

	// Long enough that no bound passes during a row: every waiter's bound is the first
	// grant's instant.
	private static final Duration TERM = Duration.ofMinutes(30);

	private final ScaleStore store;

	private final LeaseHost host;

	private final ScaleSettings settings;

	private final LeaseKey key = LeaseKey.of("scale:" + UUID.randomUUID());

	private final AtomicInteger served = new AtomicInteger();

	private final AtomicInteger holding = new AtomicInteger();

	private final AtomicInteger overlaps = new AtomicInteger();

	private final AtomicInteger unavailable = new AtomicInteger();

	private final AtomicInteger errors = new AtomicInteger();

	private final AtomicReference<String> firstError = new AtomicReference<>("");

	private final CountDownLatch done = new CountDownLatch(1);

	private volatile long lastRelease;

	private volatile boolean stopped;

	private volatile int target = Integer.MAX_VALUE;

	private int[] order = new int[0];

	private long[] latencies = new long[0];

	private Instant[] grantedAt = new Instant[0];

	private HotKeyRun(ScaleStore store, ScaleSettings settings) {
		this.store = store;
		this.host = store.host();
		this.settings = settings;
	}

	static Row run(ScaleStore store, ScaleSettings settings, int waiters) {
		return new HotKeyRun(store, settings).run(waiters);
	}

	private Row run(int waiters) {
		int capacity = Math.min(waiters, this.settings.maxHandoffs());
		this.order = new int[capacity];
		this.latencies = new long[capacity];
		this.grantedAt = new Instant[capacity];
		LeaseHolder first = LeaseHolder.of("scale-first");
		TryTakeResult firstResult = this.host.tryTake(this.key, first, TERM);
		if (!(firstResult instanceof Taken taken)) {
			throw new IllegalStateException("A fresh key was not free: " + firstResult);
		}
		Instant bound = taken.expiresAt();
		Thread[] threads = new Thread[waiters];
		long setupStart = System.nanoTime();
		int queued = 0;
		long setupLimit = setupStart + this.settings.maxSetup().toNanos();
		while (queued < waiters && System.nanoTime() < setupLimit) {
			threads[queued] = start(queued);
			awaitQueued(queued, threads[queued]);
			queued++;
		}
		double setupSeconds = (System.nanoTime() - setupStart) / 1e9;
		this.target = Math.min(queued, capacity);
		ScaleStore.Counters before = this.store.counters();
		long windowStart = System.nanoTime();
		this.lastRelease = windowStart;
		this.host.release(this.key, first);
		boolean finished = await(this.done, this.settings.maxRow());
		ScaleStore.Counters after = this.store.counters();
		double windowSeconds = (System.nanoTime() - windowStart) / 1e9;
		int handoffs = Math.min(this.served.get(), this.target);
		this.stopped = true;
		int stragglers = stop(threads, queued);
		return new Row(this.store.name(), waiters, queued, setupSeconds, handoffs, finished, windowSeconds,
				Window.between(before, after), percentile(handoffs, 0.50), percentile(handoffs, 0.99),
				outOfOrder(handoffs), this.overlaps.get(), afterBound(handoffs, bound), this.unavailable.get(),
				this.errors.get() + stragglers, this.firstError.get());
	}

	private Thread start(int index) {
		LeaseHolder holder = holder(index);
		Thread thread = WaiterThreads.unstarted("scale-waiter-" + index, () -> waitAndHandOn(index, holder));
		thread.start();
		return thread;
	}

	private void waitAndHandOn(int index, LeaseHolder holder) {
		try {
			TakeResult result = this.host.take(this.key, holder, TERM);
			long returned = System.nanoTime();
			// Once the row is stopped its queue is dropped, and the waiters left may
			// be answered anything.
			if (this.stopped) {
				return;
			}
			if (!(result instanceof Taken taken)) {
				this.unavailable.incrementAndGet();
				return;
			}
			if (this.holding.incrementAndGet() > 1) {
				this.overlaps.incrementAndGet();
			}
			int handoff = this.served.getAndIncrement();
			if (handoff < this.order.length) {
				this.order[handoff] = index;
				this.latencies[handoff] = returned - this.lastRelease;
				this.grantedAt[handoff] = taken.expiresAt().minus(TERM);
			}
			if (handoff + 1 >= this.target) {
				this.done.countDown();
				return;
			}
			if (!this.settings.hold().isZero()) {
				LockSupport.parkNanos(this.settings.hold().toNanos());
			}
			this.holding.decrementAndGet();
			this.lastRelease = System.nanoTime();
			this.host.release(this.key, holder);
		}
		catch (InterruptedException ex) {
			// withdrawn when the row hit its cap
		}
		catch (RuntimeException ex) {
			if (!this.stopped) {
				this.errors.incrementAndGet();
				this.firstError.compareAndSet("", ex.toString());
			}
		}
	}

	// Ask as the waiter itself: a host answers "already waits" only once the waiter is in
	// its queue, and a Held answer writes nothing.
	private void awaitQueued(int index, Thread thread) {
		LeaseHolder holder = holder(index);
		long pause = 50_000;
		while (thread.isAlive()) {
			try {
				TryTakeResult result = this.host.tryTake(this.key, holder, TERM);
				if (result instanceof Taken) {
					this.errors.incrementAndGet();
					this.firstError.compareAndSet("", "the key was free while the first grant stood");
					return;
				}
			}
			catch (ReentrantTakeException ex) {
				return;
			}
			LockSupport.parkNanos(pause);
			pause = Math.min(pause * 2, 2_000_000);
		}
	}

	// Drop the key's queue first (this suite's own key), so the waiters left withdraw
	// without each paying for the others.
	private int stop(Thread[] threads, int queued) {
		this.store.forget(this.key);
		for (int i = 0; i < queued; i++) {
			threads[i].interrupt();
		}
		long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
		int stragglers = 0;
		for (int i = 0; i < queued; i++) {
			long left = deadline - System.nanoTime();
			try {
				threads[i].join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return stragglers;
			}
			if (threads[i].isAlive()) {
				stragglers++;
			}
		}
		this.store.forget(this.key);
		return stragglers;
	}

	private static boolean await(CountDownLatch latch, Duration limit) {
		try {
			return latch.await(limit.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private double percentile(int handoffs, double fraction) {
		if (handoffs == 0) {
			return Double.NaN;
		}
		long[] sorted = Arrays.copyOf(this.latencies, handoffs);
		Arrays.sort(sorted);
		return sorted[(int) Math.ceil(handoffs * fraction) - 1] / 1e6;
	}

	// A grant to a waiter that arrived before one already served.
	private int outOfOrder(int handoffs) {
		int violations = 0;
		int latest = -1;
		for (int i = 0; i < handoffs; i++) {
			if (this.order[i] < latest) {
				violations++;
			}
			latest = Math.max(latest, this.order[i]);
		}
		return violations + skipped(handoffs, latest);
	}

	// Waiters that arrived before the latest one served and were never served.
	private int skipped(int handoffs, int latest) {
		boolean[] seen = new boolean[latest + 1];
		for (int i = 0; i < handoffs; i++) {
			seen[this.order[i]] = true;
		}
		int skipped = 0;
		for (boolean was : seen) {
			skipped += was ? 0 : 1;
		}
		return skipped;
	}

	private int afterBound(int handoffs, Instant bound) {
		int late = 0;
		for (int i = 0; i < handoffs; i++) {
			late += this.grantedAt[i].isAfter(bound) ? 1 : 0;
		}
		return late;
	}

	private static LeaseHolder holder(int index) {
		return LeaseHolder.of("scale-waiter-" + index);
	}

	/**
	 * Store counters over the handoff window.
	 *
	 * @param calls host calls, or -1
	 * @param scriptCalls script calls, or -1
	 * @param storeMicros store time, or -1
	 * @param maxSingleMicros the longest single call, or -1
	 * @param maxSingleName what it was
	 */
	record Window(long calls, long scriptCalls, long storeMicros, long maxSingleMicros, String maxSingleName) {

		static Window between(ScaleStore.Counters before, ScaleStore.Counters after) {
			return new Window(delta(before.calls(), after.calls()), delta(before.scriptCalls(), after.scriptCalls()),
					delta(before.storeMicros(), after.storeMicros()), after.maxSingleMicros(), after.maxSingleName());
		}

		private static long delta(long before, long after) {
			return (before < 0 || after < 0) ? -1 : after - before;
		}

	}

	/**
	 * What one row saw.
	 *
	 * @param host the host's name
	 * @param waiters waiters asked for
	 * @param queued waiters queued before the setup cap
	 * @param setupSeconds time to queue them
	 * @param handoffs handoffs measured
	 * @param finished whether the row ended by its handoff count rather than its time cap
	 * @param windowSeconds the measured window
	 * @param window store counters over the window
	 * @param p50Millis handoff latency p50
	 * @param p99Millis handoff latency p99
	 * @param outOfOrder grants out of arrival order plus waiters skipped
	 * @param overlaps grants that began while another stood
	 * @param afterBound grants after the waiter's bound
	 * @param unavailable waiters answered Unavailable
	 * @param errors waiters that failed or did not end
	 * @param firstError the first failure
	 */
	record Row(String host, int waiters, int queued, double setupSeconds, int handoffs, boolean finished,
			double windowSeconds, Window window, double p50Millis, double p99Millis, int outOfOrder, int overlaps,
			int afterBound, int unavailable, int errors, String firstError) {

	}

}
