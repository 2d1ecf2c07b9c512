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

package dev.lease.tck.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;

/**
 * A random schedule of takes, try takes, releases, remainings and pauses across a few
 * threads and keys, reproducible from its seed. Each thread is one holder and runs its
 * steps in order; pauses may outlast the holder's term, as a stalled process would.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class RandomSchedule {

	/** The longest term a step asks for, in milliseconds. */
	public static final int MAX_TERM_MILLIS = 400;

	private final String origin;

	private final List<LeaseKey> keys;

	private final List<List<Step>> threads;

	/**
	 * Generate a schedule of 2 to 8 threads on 1 to 3 fresh keys.
	 * @param seed the seed that reproduces the schedule
	 */
	public RandomSchedule(long seed) {
		Random random = new Random(seed);
		int keyCount = 1 + random.nextInt(3);
		List<List<Step>> threads = new ArrayList<>();
		int threadCount = 2 + random.nextInt(7);
		for (int t = 0; t < threadCount; t++) {
			List<Step> steps = new ArrayList<>();
			int stepCount = 4 + random.nextInt(7);
			for (int s = 0; s < stepCount; s++) {
				steps.add(Step.random(random, keyCount));
			}
			threads.add(steps);
		}
		this.origin = "seed=" + seed;
		this.keys = freshKeys(keyCount);
		this.threads = threads;
	}

	private RandomSchedule(String origin, int keyCount, List<List<Step>> threads) {
		this.origin = origin;
		this.keys = freshKeys(keyCount);
		this.threads = threads;
	}

	/**
	 * Build a schedule from given steps, on fresh keys, as a property-based test's
	 * generator does so that a failing schedule can be shrunk.
	 * @param keyCount the number of keys, 1 to 3
	 * @param threads each thread's steps, 2 to 8 threads
	 * @return the schedule
	 */
	public static RandomSchedule of(int keyCount, List<List<Step>> threads) {
		if (keyCount < 1 || keyCount > 3) {
			throw new IllegalArgumentException("'keyCount' must be 1 to 3, but was " + keyCount);
		}
		if (threads.size() < 2 || threads.size() > 8) {
			throw new IllegalArgumentException("a schedule needs 2 to 8 threads, but had " + threads.size());
		}
		List<List<Step>> copy = threads.stream().map(List::copyOf).toList();
		return new RandomSchedule("given", keyCount, copy);
	}

	/**
	 * Return the same steps on fresh keys, for running a schedule again on a host that
	 * may still hold the old keys.
	 * @return the schedule on fresh keys
	 */
	public RandomSchedule onFreshKeys() {
		return new RandomSchedule(this.origin, this.keys.size(), this.threads);
	}

	private static List<LeaseKey> freshKeys(int keyCount) {
		String prefix = "schedule:" + UUID.randomUUID() + ":";
		List<LeaseKey> keys = new ArrayList<>();
		for (int i = 0; i < keyCount; i++) {
			keys.add(LeaseKey.of(prefix + i));
		}
		return List.copyOf(keys);
	}

	/**
	 * Return the keys the schedule uses.
	 * @return the keys
	 */
	public List<LeaseKey> keys() {
		return this.keys;
	}

	/**
	 * Return the longest term any step asks for.
	 * @return the longest term
	 */
	public Duration longestTerm() {
		return Duration.ofMillis(MAX_TERM_MILLIS);
	}

	/**
	 * Run every thread's steps against the host and wait for all of them.
	 * @param host the host, usually a {@link RecordingLeaseHost}
	 * @param timeout the longest the whole schedule may take
	 * @throws Exception if a step failed other than by a reentrant refusal
	 */
	public void run(LeaseHost host, Duration timeout) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(this.threads.size());
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int t = 0; t < this.threads.size(); t++) {
				LeaseHolder holder = LeaseHolder.of("schedule-holder-" + t + ":" + UUID.randomUUID());
				List<Step> steps = this.threads.get(t);
				running.add(executor.submit(() -> {
					for (Step step : steps) {
						step.run(host, this.keys.get(step.key() % this.keys.size()), holder);
					}
					return null;
				}));
			}
			for (Future<?> thread : running) {
				thread.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Override
	public String toString() {
		return "RandomSchedule[" + this.origin + ", keys=" + this.keys + ", threads=" + this.threads + "]";
	}

	/**
	 * One step of one thread.
	 *
	 * @param kind what the step does
	 * @param key which of the schedule's keys it asks about, modulo their number
	 * @param millis the term it asks for, or how long it pauses
	 */
	public record Step(Kind kind, int key, int millis) {

		/**
		 * Check the step.
		 * @param kind what the step does
		 * @param key which of the schedule's keys it asks about, modulo their number
		 * @param millis the term it asks for (1 to {@value #MAX_TERM_MILLIS}), or how
		 * long it pauses (0 or more)
		 */
		public Step {
			if (key < 0) {
				throw new IllegalArgumentException("'key' must not be negative, but was " + key);
			}
			boolean term = kind == Kind.TAKE || kind == Kind.TRY_TAKE;
			if ((term && (millis < 1 || millis > MAX_TERM_MILLIS)) || millis < 0) {
				throw new IllegalArgumentException("'millis' out of range for " + kind + ": " + millis);
			}
		}

		static Step random(Random random, int keyCount) {
			Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
			int millis = (kind == Kind.PAUSE) ? random.nextInt(300) : 50 + random.nextInt(MAX_TERM_MILLIS - 49);
			return new Step(kind, random.nextInt(keyCount), millis);
		}

		void run(LeaseHost host, LeaseKey key, LeaseHolder holder) throws InterruptedException {
			Duration term = Duration.ofMillis(this.millis);
			try {
				switch (this.kind) {
					case TAKE -> host.take(key, holder, term);
					case TRY_TAKE -> host.tryTake(key, holder, term);
					case RELEASE -> host.release(key, holder);
					case REMAINING -> host.remaining(key, holder);
					case PAUSE -> Thread.sleep(this.millis);
				}
			}
			catch (ReentrantTakeException ex) {
				// A refusal is an answer the history records and the checker judges.
			}
		}

		@Override
		public String toString() {
			return this.kind + "(" + ((this.kind != Kind.PAUSE) ? "key " + this.key + ", " : "") + this.millis + "ms)";
		}

	}

	/**
	 * What a step does.
	 */
	public enum Kind {

		/** {@code take} for the step's term. */
		TAKE,

		/** {@code tryTake} for the step's term. */
		TRY_TAKE,

		/** {@code release}. */
		RELEASE,

		/** {@code remaining}. */
		REMAINING,

		/** Sleep for the step's time, holding whatever the thread holds. */
		PAUSE

	}

}
