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

package dev.lease.observation;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import dev.lease.AsyncLeaseHost;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.observation.ObservedLeaseHostTests.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the contention meters of {@link ObservedLeaseHost} and its non-blocking view:
 * {@code lease.waiting}, {@code lease.waiting.oldest} and {@code lease.held}. The meters
 * read a {@link MockClock}, so every duration asserted is the one the test made.
 *
 * @author Lease contributors
 */
class ObservedLeaseHostContentionTests {

	// Only bounds how long a broken build hangs: each wait is for an event, not a speed.
	private static final Duration HANG = Duration.ofMinutes(1);

	private final MockClock meterClock = new MockClock();

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry(SimpleConfig.DEFAULT, this.meterClock);

	private final ObservedLeaseHost host = new ObservedLeaseHost(new InMemoryLeaseHost(), "memory", this.meters,
			ObservationRegistry.NOOP);

	@Test
	void aBlockingTakeWaitsInTheGaugesUntilItIsAnswered() throws Exception {
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder first = LeaseHolder.of(fresh());
		this.host.take(key, first, Duration.ofSeconds(30));
		assertThat(waiting().value()).isZero();
		AtomicReference<@Nullable TakeResult> answer = new AtomicReference<>();
		Thread waiter = new Thread(() -> answer.set(takeQuietly(key, LeaseHolder.of(fresh()))));
		waiter.start();
		await().atMost(HANG).until(() -> waiting().value() == 1.0);
		this.meterClock.add(Duration.ofSeconds(5));
		assertThat(oldest().value(TimeUnit.SECONDS)).isEqualTo(5.0);
		this.host.release(key, first);
		waiter.join();
		assertThat(answer.get()).isInstanceOf(Taken.class);
		assertThat(waiting().value()).isZero();
		assertThat(oldest().value(TimeUnit.SECONDS)).isZero();
	}

	@Test
	void anInterruptedBlockingTakeLeavesTheGauges() throws Exception {
		LeaseKey key = LeaseKey.of(fresh());
		this.host.take(key, LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		AtomicReference<@Nullable TakeResult> answer = new AtomicReference<>();
		Thread waiter = new Thread(() -> answer.set(takeQuietly(key, LeaseHolder.of(fresh()))));
		waiter.start();
		await().atMost(HANG).until(() -> waiting().value() == 1.0);
		this.meterClock.add(Duration.ofSeconds(2));
		assertThat(oldest().value(TimeUnit.SECONDS)).isEqualTo(2.0);
		waiter.interrupt();
		waiter.join();
		assertThat(answer.get()).isNull();
		assertThat(waiting().value()).isZero();
		assertThat(oldest().value(TimeUnit.SECONDS)).isZero();
	}

	@Test
	void asynchronousTakesWaitUntilAnsweredOrCancelledAndTheOldestIsTheEarliestStillWaiting() {
		AsyncLeaseHost async = this.host.async();
		LeaseKey firstKey = LeaseKey.of(fresh());
		LeaseKey secondKey = LeaseKey.of(fresh());
		LeaseHolder firstHolder = LeaseHolder.of(fresh());
		async.take(firstKey, firstHolder, Duration.ofSeconds(30)).join();
		async.take(secondKey, LeaseHolder.of(fresh()), Duration.ofSeconds(30)).join();
		assertThat(waiting().value()).isZero();
		CompletableFuture<TakeResult> early = async.take(firstKey, LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		this.meterClock.add(Duration.ofSeconds(5));
		CompletableFuture<TakeResult> late = async.take(secondKey, LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		this.meterClock.add(Duration.ofSeconds(2));
		assertThat(waiting().value()).isEqualTo(2.0);
		assertThat(oldest().value(TimeUnit.SECONDS)).isEqualTo(7.0);
		assertThat(async.release(firstKey, firstHolder).join()).isInstanceOf(Released.class);
		assertThat(early.join()).isInstanceOf(Taken.class);
		assertThat(waiting().value()).isEqualTo(1.0);
		assertThat(oldest().value(TimeUnit.SECONDS)).isEqualTo(2.0);
		late.cancel(false);
		assertThat(waiting().value()).isZero();
		assertThat(oldest().value(TimeUnit.SECONDS)).isZero();
	}

	@Test
	void aTryTakeNeverWaits() {
		LeaseKey key = LeaseKey.of(fresh());
		this.host.tryTake(key, LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		this.host.async().tryTake(key, LeaseHolder.of(fresh()), Duration.ofSeconds(30)).join();
		assertThat(waiting().value()).isZero();
	}

	@Test
	void theHeldTimerRecordsFromGrantToReleaseTaggedReleased() throws InterruptedException {
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder holder = LeaseHolder.of(fresh());
		this.host.take(key, holder, Duration.ofSeconds(30));
		this.meterClock.add(Duration.ofSeconds(3));
		assertThat(held("released").count()).isZero();
		this.host.release(key, holder);
		assertThat(held("released").count()).isEqualTo(1);
		assertThat(held("released").totalTime(TimeUnit.SECONDS)).isEqualTo(3.0);
		assertThat(held("not-held").count()).isZero();
		// the non-blocking view keeps the same timer
		this.host.async().take(key, holder, Duration.ofSeconds(30)).join();
		this.meterClock.add(Duration.ofSeconds(4));
		this.host.async().release(key, holder).join();
		assertThat(held("released").count()).isEqualTo(2);
		assertThat(held("released").totalTime(TimeUnit.SECONDS)).isEqualTo(7.0);
	}

	@Test
	void theHeldTimerRecordsAnOverrunTaggedNotHeld() {
		MutableClock hostClock = new MutableClock();
		ObservedLeaseHost clocked = new ObservedLeaseHost(new InMemoryLeaseHost(hostClock), "clocked", this.meters,
				ObservationRegistry.NOOP, null, hostClock);
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder holder = LeaseHolder.of(fresh());
		Taken taken = (Taken) clocked.tryTake(key, holder, Duration.ofSeconds(30));
		hostClock.now = taken.lease().expiresAt().plusSeconds(10);
		this.meterClock.add(Duration.ofSeconds(40));
		assertThat(clocked.release(key, holder)).isInstanceOf(NotHeld.class);
		Timer overrun = this.meters.get("lease.held")
			.tags("lease.host", "clocked", "lease.outcome", "not-held")
			.timer();
		assertThat(overrun.count()).isEqualTo(1);
		assertThat(overrun.totalTime(TimeUnit.SECONDS)).isEqualTo(40.0);
		assertThat(this.meters.get("lease.held")
			.tags("lease.host", "clocked", "lease.outcome", "released")
			.timer()
			.count()).isZero();
	}

	@Test
	void aReleaseOfAGrantNotTakenHereRecordsNoHoldTime() {
		this.host.release(LeaseKey.of(fresh()), LeaseHolder.of(fresh()));
		assertThat(held("released").count()).isZero();
		assertThat(held("not-held").count()).isZero();
	}

	private @Nullable TakeResult takeQuietly(LeaseKey key, LeaseHolder holder) {
		try {
			return this.host.take(key, holder, Duration.ofSeconds(30));
		}
		catch (InterruptedException ex) {
			return null;
		}
	}

	private Gauge waiting() {
		return this.meters.get("lease.waiting").tag("lease.host", "memory").gauge();
	}

	private TimeGauge oldest() {
		return this.meters.get("lease.waiting.oldest").tag("lease.host", "memory").timeGauge();
	}

	private Timer held(String outcome) {
		return this.meters.get("lease.held").tags("lease.host", "memory", "lease.outcome", outcome).timer();
	}

	private static String fresh() {
		return UUID.randomUUID().toString();
	}

}
