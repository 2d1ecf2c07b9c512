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

package dev.lease.autoconfigure.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.Taken;
import dev.lease.tck.history.RecordingLeaseHost;

/**
 * Takes, try takes, remainings and releases from several threads on a few shared keys
 * with short terms, through a {@link RecordingLeaseHost}; and, now and then, a grant on a
 * fresh key with a long term that is kept, so that a test can ask afterwards whether it
 * still stands. Each take has a holder of its own. A call that fails with
 * {@link LeaseHostException} (its outcome unknown, as during a failover) or is refused as
 * reentrant is left to the history checker; any other failure ends the load and is thrown
 * by {@link #stop()}.
 *
 * @author Lease contributors
 */
final class FailoverLoad {

	static final Duration KEPT_TERM = Duration.ofSeconds(60);

	private final RecordingLeaseHost host;

	private final List<LeaseKey> keys;

	private final int threads;

	private final ExecutorService executor;

	private final List<Future<?>> workers = new ArrayList<>();

	private final ConcurrentLinkedQueue<KeptGrant> kept = new ConcurrentLinkedQueue<>();

	private final AtomicLong answered = new AtomicLong();

	private final AtomicLong failed = new AtomicLong();

	private final AtomicReference<Instant> lastAnswer = new AtomicReference<>(Instant.MIN);

	private volatile boolean stopped;

	FailoverLoad(RecordingLeaseHost host, int threads, int keys) {
		this.host = host;
		this.threads = threads;
		this.keys = IntStream.range(0, keys).mapToObj((i) -> LeaseKey.of("failover-" + UUID.randomUUID())).toList();
		this.executor = Executors.newFixedThreadPool(threads);
	}

	void start() {
		for (int i = 0; i < this.threads; i++) {
			String name = "worker-" + i;
			this.workers.add(this.executor.submit(() -> {
				work(name);
				return null;
			}));
		}
	}

	// Stop after the calls in flight, and throw what ended a worker, if anything did.
	void stop() throws Exception {
		this.stopped = true;
		this.executor.shutdown();
		try {
			for (Future<?> worker : this.workers) {
				worker.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			this.executor.shutdownNow();
		}
	}

	List<KeptGrant> kept() {
		return List.copyOf(this.kept);
	}

	// When the last call answered, on the history's clock.
	Instant lastAnswer() {
		return this.lastAnswer.get();
	}

	long answered() {
		return this.answered.get();
	}

	long failed() {
		return this.failed.get();
	}

	private void work(String name) throws InterruptedException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		long count = 0;
		while (!this.stopped) {
			LeaseHolder holder = LeaseHolder.of(name + "-" + (count++));
			try {
				int dice = random.nextInt(20);
				if (dice == 0) {
					LeaseKey key = LeaseKey.of("kept-" + UUID.randomUUID());
					if (this.host.tryTake(key, holder, KEPT_TERM) instanceof Taken taken) {
						this.kept.add(new KeptGrant(taken.lease(), this.host.now()));
					}
					countAnswer();
					continue;
				}
				LeaseKey key = this.keys.get(random.nextInt(this.keys.size()));
				// short terms, and some longer than a failover lasts, so that a grant or
				// a
				// release the failover lost would show in the history
				boolean longTerm = random.nextInt(10) < 3;
				Duration term = Duration.ofMillis(longTerm ? 2000 + random.nextInt(3000) : 100 + random.nextInt(300));
				Object answer = (dice < 14) ? this.host.tryTake(key, holder, term) : this.host.take(key, holder, term);
				countAnswer();
				if (answer instanceof Taken) {
					if (random.nextBoolean()) {
						this.host.remaining(key, holder);
						countAnswer();
					}
					Thread.sleep(random.nextInt(5));
					// one short grant in twenty is left to end at its instant
					if (longTerm || random.nextInt(20) != 0) {
						this.host.release(key, holder);
						countAnswer();
					}
				}
			}
			catch (LeaseHostException | ReentrantTakeException ex) {
				this.failed.incrementAndGet();
			}
		}
	}

	private void countAnswer() {
		this.answered.incrementAndGet();
		Instant now = this.host.now();
		this.lastAnswer.accumulateAndGet(now, (a, b) -> a.isAfter(b) ? a : b);
	}

	/**
	 * A grant kept to its instant, and when it was answered on the history's clock.
	 *
	 * @param lease the grant
	 * @param answeredAt when the take answered
	 */
	record KeptGrant(Lease lease, Instant answeredAt) {

	}

}
