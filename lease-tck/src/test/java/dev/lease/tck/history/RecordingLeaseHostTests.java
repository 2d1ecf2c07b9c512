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
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RecordingLeaseHost}'s clock: its readings are compared with the host's
 * instants across the checker's skew, so they must track the system clock whatever pauses
 * the recorder's thread.
 *
 * @author Lease contributors
 */
class RecordingLeaseHostTests {

	private static final Instant T0 = Instant.parse("2026-12-07T12:00:00Z");

	private static final Duration PAUSE = Duration.ofMillis(12);

	@Test
	@DisplayName("Fence 1: a pause between the recorder's first two clock readings does not put its clock behind the system clock")
	void aPauseWhileAnchoringDoesNotShiftTheClock() {
		AtomicLong elapsed = new AtomicLong();
		// A collection or a preempted thread, once, right after the system clock is read.
		Supplier<Instant> pausedOnce = new Supplier<>() {

			private boolean paused;

			@Override
			public Instant get() {
				Instant reading = T0.plusNanos(elapsed.get());
				if (!this.paused) {
					this.paused = true;
					elapsed.addAndGet(PAUSE.toNanos());
				}
				return reading;
			}

		};
		RecordingLeaseHost recording = new RecordingLeaseHost(new InMemoryLeaseHost(), pausedOnce,
				() -> elapsed.addAndGet(1_000));
		elapsed.addAndGet(Duration.ofSeconds(3).toNanos());
		Instant system = T0.plusNanos(elapsed.get());
		assertThat(Duration.between(recording.now(), system).abs()).isLessThan(Duration.ofMillis(1));
	}

}
