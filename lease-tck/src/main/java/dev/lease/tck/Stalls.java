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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The time a test lost to the machine it runs on: a watcher parks in short steps and sums
 * how late it woke beyond a grain that a quiet machine keeps. An upper bound widened by
 * it stays as tight as the rule on a quiet machine and follows a loaded one, so a verdict
 * does not depend on how busy the machine is (docs/architecture.md, "Time.").
 *
 * @author Lease contributors
 */
public final class Stalls implements AutoCloseable {

	private static final long STEP = TimeUnit.MILLISECONDS.toNanos(5);

	// A timer's usual lateness on an idle machine, not counted as lost.
	private static final long GRAIN = TimeUnit.MILLISECONDS.toNanos(1);

	private final AtomicLong lost = new AtomicLong();

	private final Thread watcher;

	/**
	 * Start watching.
	 */
	public Stalls() {
		this.watcher = new Thread(this::watch, "tck-stalls");
		this.watcher.setDaemon(true);
		this.watcher.start();
	}

	private void watch() {
		while (!Thread.currentThread().isInterrupted()) {
			long parked = System.nanoTime();
			LockSupport.parkNanos(STEP);
			long late = System.nanoTime() - parked - STEP - GRAIN;
			if (late > 0) {
				this.lost.addAndGet(late);
			}
		}
	}

	/**
	 * Return the time lost since the watcher started.
	 * @return the sum of the watcher's late wake-ups
	 */
	public Duration lost() {
		return Duration.ofNanos(this.lost.get());
	}

	@Override
	public void close() {
		this.watcher.interrupt();
	}

}
