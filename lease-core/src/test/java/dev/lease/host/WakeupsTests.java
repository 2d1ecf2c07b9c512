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
import java.util.concurrent.atomic.AtomicInteger;

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
	@DisplayName("Host: waking: a wake-up that came before the sleep is not lost")
	void wakeBeforeAwaitIsKept() throws InterruptedException {
		Wakeups.Signal<Long> signal = this.wakeups.register(this.key, 7L);
		this.wakeups.wake(this.key, List.of());
		long started = System.nanoTime();
		signal.await(LONG_WAIT);
		assertThat(System.nanoTime() - started).isLessThan(LONG_WAIT / 2);
		assertThat(signal.takeAskNow()).isTrue();
		assertThat(signal.takeAskNow()).isFalse();
	}

	@Test
	@DisplayName("Host: waking: many wake-ups while awake are one, consumed by the next sleep")
	void wakeUpsCollapseIntoOne() throws InterruptedException {
		Wakeups.Signal<Long> signal = this.wakeups.register(this.key, 7L);
		this.wakeups.wake(this.key, List.of());
		this.wakeups.wakeAll();
		signal.await(LONG_WAIT);
		long started = System.nanoTime();
		signal.await(TimeUnit.MILLISECONDS.toNanos(20));
		assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
	}

	@Test
	@DisplayName("Host: waking: a waiter that holds no thread is called at each wake-up that reaches it, and no more once it leaves")
	void onWakeIsCalledAtEachWakeUpOfItsWaiter() {
		Wakeups.Signal<Long> named = this.wakeups.register(this.key, 7L);
		Wakeups.Signal<Long> other = this.wakeups.register(this.key, 8L);
		AtomicInteger namedCalls = new AtomicInteger();
		AtomicInteger otherCalls = new AtomicInteger();
		named.onWake(namedCalls::incrementAndGet);
		other.onWake(otherCalls::incrementAndGet);
		this.wakeups.wake(this.key, List.of(new Wakeups.Handoff<>(7L, Instant.parse("2026-03-01T12:00:00Z"))));
		assertThat(namedCalls).hasValue(1);
		assertThat(otherCalls).hasValue(0);
		this.wakeups.wakeAll();
		assertThat(namedCalls).hasValue(2);
		assertThat(otherCalls).hasValue(1);
		named.onWake(null);
		this.wakeups.unregister(this.key, named);
		assertThat(otherCalls).as("made the delegate when the first waiter left").hasValue(2);
		assertThat(other.delegate()).isTrue();
		this.wakeups.wakeAll();
		assertThat(namedCalls).hasValue(2);
	}

	@Test
	@DisplayName("Issue 16: a handoff wakes only the waiter it names, with the grant's instant; the others sleep on")
	void handoffWakesOnlyTheNamedWaiter() throws InterruptedException {
		Wakeups.Signal<Long> named = this.wakeups.register(this.key, 7L);
		Wakeups.Signal<Long> other = this.wakeups.register(this.key, 8L);
		assertThat(named.handed()).isNull();
		Instant expiresAt = Instant.parse("2026-03-01T12:00:00Z");
		this.wakeups.wake(this.key, List.of(new Wakeups.Handoff<>(7L, expiresAt)));
		assertThat(named.handed()).isEqualTo(expiresAt);
		assertThat(other.handed()).isNull();
		long started = System.nanoTime();
		other.await(TimeUnit.MILLISECONDS.toNanos(20));
		assertThat(System.nanoTime() - started).as("the waiter not named sleeps on")
			.isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
		// a later wake-up that names nobody does not forget the handoff
		this.wakeups.wake(this.key, List.of());
		assertThat(named.handed()).isEqualTo(expiresAt);
	}

	@Test
	@DisplayName("Issue 16: one delegate per key re-asks for the others; when it leaves the next takes over, woken")
	void oneDelegatePerKey() throws InterruptedException {
		Wakeups.Signal<Long> first = this.wakeups.register(this.key, 1L);
		Wakeups.Signal<Long> second = this.wakeups.register(this.key, 2L);
		Wakeups.Signal<Long> elsewhere = this.wakeups.register(LeaseKey.of("other"), 3L);
		assertThat(first.delegate()).isTrue();
		assertThat(second.delegate()).isFalse();
		assertThat(elsewhere.delegate()).isTrue();
		this.wakeups.unregister(this.key, first);
		assertThat(second.delegate()).isTrue();
		long started = System.nanoTime();
		second.await(LONG_WAIT);
		assertThat(System.nanoTime() - started).isLessThan(LONG_WAIT / 2);
	}

	@Test
	@DisplayName("Host: waking: when notifications stop, each key's delegate is woken without being made to ask; the others sleep on")
	void wakeDelegatesWakesOnlyTheDelegates() throws InterruptedException {
		Wakeups.Signal<Long> first = this.wakeups.register(this.key, 1L);
		Wakeups.Signal<Long> second = this.wakeups.register(this.key, 2L);
		Wakeups.Signal<Long> elsewhere = this.wakeups.register(LeaseKey.of("other"), 3L);
		this.wakeups.wakeDelegates();
		long started = System.nanoTime();
		first.await(LONG_WAIT);
		elsewhere.await(LONG_WAIT);
		assertThat(System.nanoTime() - started).isLessThan(LONG_WAIT / 2);
		assertThat(first.takeAskNow()).isFalse();
		assertThat(elsewhere.takeAskNow()).isFalse();
		started = System.nanoTime();
		second.await(TimeUnit.MILLISECONDS.toNanos(20));
		assertThat(System.nanoTime() - started).as("the waiter that is no delegate sleeps on")
			.isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
	}

	@Test
	@DisplayName("Issue 16: the waiter next in line learns when the standing grant ends; an answer 'not next' forgets only a passed instant")
	void nextInLineLearnsWhenTheStandingGrantEnds() {
		Wakeups.Signal<Long> head = this.wakeups.register(this.key, 1L);
		Wakeups.Signal<Long> behind = this.wakeups.register(this.key, 2L);
		long ends = 5_000_000_000L;
		this.wakeups.nextInLineAt(this.key, 1L, ends);
		assertThat(head.standingEndsAt()).isEqualTo(ends);
		assertThat(behind.standingEndsAt()).isEqualTo(Wakeups.Signal.NOT_NEXT);
		head.answered(false, ends, ends - 1_000_000_000L);
		assertThat(head.standingEndsAt()).isEqualTo(ends);
		head.answered(false, ends + 5_000_000_000L, ends);
		assertThat(head.standingEndsAt()).isEqualTo(Wakeups.Signal.NOT_NEXT);
	}

	@Test
	@DisplayName("An instant on the host's clock is placed on this JVM's timer by the host's clock as last answered")
	void nextInLineOnTheHostsClockIsPlacedOnTheTimer() {
		Wakeups.Signal<Long> head = this.wakeups.register(this.key, 1L);
		Instant hostNow = Instant.parse("2026-03-01T12:00:00Z");
		this.wakeups.timer().answered(Micros.of(hostNow), 7_000_000_000L);
		this.wakeups.nextInLine(this.key, 1L, hostNow.plusMillis(250));
		assertThat(head.standingEndsAt()).isEqualTo(7_250_000_000L);
	}

	@Test
	@DisplayName("A wake-up reaches the waiters of its key only, and none once unregistered")
	void wakeReachesOnlyRegisteredWaitersOfTheKey() {
		Wakeups.Signal<Long> signal = this.wakeups.register(this.key, 7L);
		Wakeups.Signal<Long> other = this.wakeups.register(LeaseKey.of("other"), 7L);
		Instant expiresAt = Instant.parse("2026-03-01T12:00:00Z");
		this.wakeups.wake(LeaseKey.of("other"), List.of(new Wakeups.Handoff<>(7L, expiresAt)));
		assertThat(signal.handed()).isNull();
		assertThat(other.handed()).isEqualTo(expiresAt);
		this.wakeups.unregister(this.key, signal);
		this.wakeups.unregister(LeaseKey.of("other"), other);
		assertThat(this.wakeups.isEmpty()).isTrue();
	}

}
