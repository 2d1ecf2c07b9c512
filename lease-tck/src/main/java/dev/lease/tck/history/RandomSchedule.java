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

	private static final int MAX_TERM_MILLIS = 400;

	private final long seed;

	private final List<LeaseKey> keys = new ArrayList<>();

	private final List<List<Step>> threads = new ArrayList<>();

	/**
	 * Generate a schedule of 2 to 8 threads on 1 to 3 fresh keys.
	 * @param seed the seed that reproduces the schedule
	 */
	public RandomSchedule(long seed) {
		this.seed = seed;
		Random random = new Random(seed);
		String prefix = "schedule:" + UUID.randomUUID() + ":";
		int keyCount = 1 + random.nextInt(3);
		for (int i = 0; i < keyCount; i++) {
			this.keys.add(LeaseKey.of(prefix + i));
		}
		int threadCount = 2 + random.nextInt(7);
		for (int t = 0; t < threadCount; t++) {
			List<Step> steps = new ArrayList<>();
			int stepCount = 4 + random.nextInt(7);
			for (int s = 0; s < stepCount; s++) {
				steps.add(Step.random(random, this.keys));
			}
			this.threads.add(steps);
		}
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
						step.run(host, holder);
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
		return "RandomSchedule[seed=" + this.seed + ", keys=" + this.keys.size() + ", threads=" + this.threads + "]";
	}

	/**
	 * One step of one thread.
	 *
	 * @param kind what the step does
	 * @param key the key it asks about
	 * @param millis the term it asks for, or how long it pauses
	 */
	record Step(Kind kind, LeaseKey key, int millis) {

		static Step random(Random random, List<LeaseKey> keys) {
			Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
			int millis = (kind == Kind.PAUSE) ? random.nextInt(300) : 50 + random.nextInt(MAX_TERM_MILLIS - 49);
			return new Step(kind, keys.get(random.nextInt(keys.size())), millis);
		}

		void run(LeaseHost host, LeaseHolder holder) throws InterruptedException {
			Duration term = Duration.ofMillis(this.millis);
			try {
				switch (this.kind) {
					case TAKE -> host.take(this.key, holder, term);
					case TRY_TAKE -> host.tryTake(this.key, holder, term);
					case RELEASE -> host.release(this.key, holder);
					case REMAINING -> host.remaining(this.key, holder);
					case PAUSE -> Thread.sleep(this.millis);
				}
			}
			catch (ReentrantTakeException ex) {
				// A refusal is an answer the history records and the checker judges.
			}
		}

		@Override
		public String toString() {
			return this.kind + "(" + ((this.kind != Kind.PAUSE) ? this.key + ", " : "") + this.millis + "ms)";
		}

	}

	enum Kind {

		TAKE, TRY_TAKE, RELEASE, REMAINING, PAUSE

	}

}
