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

package dev.lease.host;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseKey;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Wakeups}.
 *
 * @author Lease contributors
 */
class WakeupsTests {

	private static final long LONG_WAIT = TimeUnit.SECONDS.toNanos(30);

	private final Wakeups<LeaseKey, Long> wakeups = new Wakeups<>();

	private final LeaseKey key = LeaseKey.of("key");

	@Test
	@DisplayName("DESIGN §4 Waking: a wake-up that came before the sleep is not lost")
	void wakeBeforeAwaitIsKept() throws InterruptedException {
		Wakeups.Signal<Long> signal = this.wakeups.register(this.key);
		this.wakeups.wake(this.key, List.of());
		long started = System.nanoTime();
		signal.await(LONG_WAIT);
		assertThat(System.nanoTime() - started).isLessThan(LONG_WAIT / 2);
	}

	@Test
	@DisplayName("DESIGN §4 Waking: many wake-ups while awake are one, consumed by the next sleep")
	void wakeUpsCollapseIntoOne() throws InterruptedException {
		Wakeups.Signal<Long> signal = this.wakeups.register(this.key);
		this.wakeups.wake(this.key, List.of());
		this.wakeups.wakeAll();
		signal.await(LONG_WAIT);
		long started = System.nanoTime();
		signal.await(TimeUnit.MILLISECONDS.toNanos(20));
		assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
	}

	@Test
	@DisplayName("DESIGN §4 Take: a handoff names its waiter and the grant's instant; others learn nothing")
	void handedToAnswersOnlyTheNamedWaiter() {
		Wakeups.Signal<Long> signal = this.wakeups.register(this.key);
		assertThat(signal.handedTo(7L)).isEmpty();
		Instant expiresAt = Instant.parse("2026-03-01T12:00:00Z");
		this.wakeups.wake(this.key, List.of(new Wakeups.Handoff<>(7L, expiresAt)));
		assertThat(signal.handedTo(7L)).contains(expiresAt);
		assertThat(signal.handedTo(8L)).isEmpty();
		// a later wake-up that names nobody does not forget the handoff
		this.wakeups.wake(this.key, List.of());
		assertThat(signal.handedTo(7L)).contains(expiresAt);
	}

	@Test
	@DisplayName("A wake-up reaches the waiters of its key only, and none once unregistered")
	void wakeReachesOnlyRegisteredWaitersOfTheKey() {
		Wakeups.Signal<Long> signal = this.wakeups.register(this.key);
		Wakeups.Signal<Long> other = this.wakeups.register(LeaseKey.of("other"));
		Instant expiresAt = Instant.parse("2026-03-01T12:00:00Z");
		this.wakeups.wake(LeaseKey.of("other"), List.of(new Wakeups.Handoff<>(7L, expiresAt)));
		assertThat(signal.handedTo(7L)).isEmpty();
		assertThat(other.handedTo(7L)).contains(expiresAt);
		this.wakeups.unregister(this.key, signal);
		this.wakeups.unregister(LeaseKey.of("other"), other);
		assertThat(this.wakeups.isEmpty()).isTrue();
		this.wakeups.wake(this.key, List.of(new Wakeups.Handoff<>(9L, expiresAt)));
		assertThat(signal.handedTo(9L)).isEmpty();
	}

}
