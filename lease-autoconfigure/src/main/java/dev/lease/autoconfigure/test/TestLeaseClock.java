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

package dev.lease.autoconfigure.test;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.util.Assert;

/**
 * A clock a test moves: the in-memory host reads it, so advancing it passes a term or a
 * hold without sleeping. It never goes back, as the host reads its clock.
 * <p>
 * Under {@link AutoConfigureLeaseTesting}, advancing also tells the host and every
 * {@code LeaseTemplate} bean, which otherwise wait on the JVM's timer for the time they
 * read from this clock: a call waiting in {@code take} (blocking, or without a thread)
 * whose holder's instant or own bound the clock passed is answered at once, and a
 * {@code holdAtLeast} the clock passed is released before {@link #advance} returns.
 *
 * @author Lease contributors
 * @since 0.1.0
 * @see AutoConfigureLeaseTesting
 */
public final class TestLeaseClock implements InstantSource {

	private final AtomicReference<Instant> now;

	private final List<Runnable> advanced = new CopyOnWriteArrayList<>();

	/**
	 * Create a clock that reads the given instant until advanced.
	 * @param start the first reading
	 */
	public TestLeaseClock(Instant start) {
		Assert.notNull(start, "'start' must not be null");
		this.now = new AtomicReference<>(start);
	}

	/**
	 * Create a clock that reads the system's instant at creation until advanced.
	 */
	public TestLeaseClock() {
		this(Instant.now());
	}

	@Override
	public Instant instant() {
		return this.now.get();
	}

	/**
	 * Move the clock forward.
	 * @param duration how far, not negative
	 * @return the new reading
	 */
	public Instant advance(Duration duration) {
		Assert.notNull(duration, "'duration' must not be null");
		Assert.isTrue(!duration.isNegative(),
				() -> "'duration' must not be negative, the clock never goes back: " + duration);
		Instant advancedTo = this.now.updateAndGet((instant) -> instant.plus(duration));
		this.advanced.forEach(Runnable::run);
		return advancedTo;
	}

	// What reads this clock but waits on the JVM's timer is told when it moves.
	void onAdvance(Runnable listener) {
		this.advanced.add(listener);
	}

}
