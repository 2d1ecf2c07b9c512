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

package dev.lease.template;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseExpiredException;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.Taken;
import dev.lease.annotation.LeaseMode;
import dev.lease.aop.RecordingLeaseHost;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeaseRequest#holdAtLeast()} in {@link LeaseTemplate}: the release
 * waits until the grant is that old, on another thread, never past the grant's instant.
 * <p>
 * Timing: every check that the grant still stands is made before the hold can have ended,
 * measured from before the call (so from no later than the take's answer); every check
 * that it ended waits with a tolerance of seconds.
 *
 * @author Lease contributors
 */
class LeaseTemplateHoldAtLeastTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static final Duration HOLD = Duration.ofMillis(600);

	private final InMemoryLeaseHost inner = new InMemoryLeaseHost();

	private final RecordingLeaseHost host = new RecordingLeaseHost(this.inner);

	private final LeaseTemplate template = new LeaseTemplate(this.host, "node-1", OnOverrun.WARN);

	// A test's holds are not waited for: each test that closes checks its own.
	@AfterEach
	void close() {
		this.template.close(Duration.ZERO);
	}

	@Test
	@DisplayName("The release waits until the grant is holdAtLeast old, without holding the caller or its lease stack")
	void grantStandsUntilItIsOldEnoughAfterTheCallerReturned() {
		String key = fresh();
		long before = System.nanoTime();
		assertThat(this.template.tryRun(LeaseRequest.of(key, TERM).withHoldAtLeast(HOLD), (lease) -> {
		})).isTrue();
		assertThat(LeaseStack.innermost()).isNull();
		assertThat(LeaseStack.holds(LeaseKey.of(key))).isFalse();
		// Until the hold can have ended, another holder finds the key held: a take that
		// finds it free has returned no sooner than the hold's end (the grant was taken
		// after 'before'), however late a busy machine ran it.
		long now;
		do {
			LeaseHolder elsewhere = LeaseHolder.of("elsewhere-" + fresh());
			boolean taken = this.inner.tryTake(LeaseKey.of(key), elsewhere, Duration.ofMillis(1)) instanceof Taken;
			now = System.nanoTime();
			assertThat(!taken || now - before >= HOLD.toNanos()).as("taken elsewhere during the hold").isTrue();
			if (taken) {
				this.inner.release(LeaseKey.of(key), elsewhere);
			}
		}
		while (now - before < HOLD.minusMillis(50).toNanos());
		await().atMost(Duration.ofSeconds(5)).until(() -> this.host.calls().contains("release " + key));
		assertThat(this.host.calls()).containsExactly("tryTake " + key, "remaining " + key, "release " + key);
		assertThat(tryTakeElsewhere(key, TERM)).isTrue();
	}

	@Test
	@DisplayName("Non-goal 1: during the hold the same thread is answered held, not refused as reentrant")
	void sameThreadTryingAgainDuringTheHoldIsAnsweredHeld() {
		String key = fresh();
		LeaseRequest request = LeaseRequest.of(key, TERM).withHoldAtLeast(Duration.ofSeconds(5));
		assertThat(this.template.tryRun(request, (lease) -> {
		})).isTrue();
		assertThat(this.template.tryRun(request, (lease) -> {
		})).isFalse();
		LeaseRequest stable = LeaseRequest.of(fresh(), TERM)
			.withHoldAtLeast(Duration.ofSeconds(5))
			.withHolder(LeaseHolder.of("node-1/report"));
		assertThat(this.template.tryRun(stable, (lease) -> {
		})).isTrue();
		LeaseOutcome<String> again = this.template.execute(stable, LeaseMode.TRY_TAKE, (lease) -> "ran");
		assertThat(again.isTaken()).isFalse();
		assertThat(again.reason()).contains("holds it at least PT5S");
	}

	@Test
	@DisplayName("Operation 1, 2: a waiting take by the same holder during the hold waits for it, then runs")
	void sameHolderTakingDuringTheHoldWaitsForIt() {
		String key = fresh();
		LeaseRequest stable = LeaseRequest.of(key, TERM).withHoldAtLeast(HOLD).withHolder(LeaseHolder.of("stable"));
		long before = System.nanoTime();
		this.template.run(stable, (lease) -> {
		});
		AtomicReference<Long> ranAt = new AtomicReference<>();
		this.template.run(stable, (lease) -> ranAt.set(System.nanoTime()));
		assertThat(ranAt.get() - before).isGreaterThanOrEqualTo(HOLD.toNanos());
		assertThat(this.host.calls()).startsWith("take " + key, "remaining " + key, "release " + key, "take " + key);
	}

	@Test
	@DisplayName("Invariant 2.1: a holdAtLeast equal to the duration is never released; the instant ends the grant")
	void holdAsLongAsTheDurationLeavesTheGrantToItsInstant() {
		String key = fresh();
		Duration term = Duration.ofMillis(500);
		assertThat(this.template.tryRun(LeaseRequest.of(key, term).withHoldAtLeast(term), (lease) -> {
		})).isTrue();
		assertThat(tryTakeElsewhere(key, Duration.ofMillis(1))).isFalse();
		await().atMost(Duration.ofSeconds(5)).until(() -> tryTakeElsewhere(key, Duration.ofMillis(1)));
		assertThat(this.host.calls()).containsExactly("tryTake " + key, "remaining " + key);
	}

	@Test
	void workLongerThanTheHoldIsReleasedAtOnce() throws InterruptedException {
		String key = fresh();
		this.template.run(LeaseRequest.of(key, TERM).withHoldAtLeast(Duration.ofMillis(50)),
				(lease) -> Thread.sleep(100));
		assertThat(this.host.calls()).containsExactly("take " + key, "release " + key);
	}

	@Test
	@DisplayName("Non-goal 11: work that outran its term is an overrun when it completes, though the hold would wait")
	void overrunIsAnsweredWhenTheWorkCompletesNotWhenTheHoldEnds() {
		MutableClock clock = new MutableClock();
		RecordingLeaseHost frozen = new RecordingLeaseHost(new InMemoryLeaseHost(clock));
		try (LeaseTemplate failing = new LeaseTemplate(frozen, "node-1", OnOverrun.FAIL)) {
			String key = fresh();
			LeaseRequest request = LeaseRequest.of(key, Duration.ofSeconds(1)).withHoldAtLeast(Duration.ofSeconds(1));
			// The host's clock passes the instant while this JVM's hardly moves.
			assertThatExceptionOfType(LeaseExpiredException.class)
				.isThrownBy(() -> failing.run(request, (lease) -> clock.advance(Duration.ofSeconds(2))));
			assertThat(frozen.calls()).containsExactly("take " + key, "remaining " + key, "release " + key);
		}
	}

	@Test
	@DisplayName("Invariant 2.1: close with a wait longer than the hold releases the grant when the hold ends, not at its instant")
	void closeWithAWaitLongerThanTheHoldReleasesWhenTheHoldEnds() {
		String key = fresh();
		long before = System.nanoTime();
		assertThat(this.template.tryRun(LeaseRequest.of(key, TERM).withHoldAtLeast(HOLD), (lease) -> {
		})).isTrue();
		this.template.close(Duration.ofSeconds(20));
		assertThat(System.nanoTime() - before).as("nanoseconds until close returned")
			.isGreaterThanOrEqualTo(HOLD.toNanos());
		assertThat(this.host.calls()).containsExactly("tryTake " + key, "remaining " + key, "release " + key);
		assertThat(tryTakeElsewhere(key, TERM)).as("taken elsewhere right after close").isTrue();
	}

	@Test
	@DisplayName("Invariant 2.1: close waits for a held release by default, so a restart within the hold loses only the hold")
	void closeReleasesHeldGrantsWhenTheirHoldsEnd() {
		String key = fresh();
		assertThat(this.template.tryRun(LeaseRequest.of(key, TERM).withHoldAtLeast(HOLD), (lease) -> {
		})).isTrue();
		this.template.close();
		assertThat(this.host.calls()).containsExactly("tryTake " + key, "remaining " + key, "release " + key);
		assertThat(tryTakeElsewhere(key, TERM)).as("taken elsewhere right after close").isTrue();
	}

	@Test
	@DisplayName("Invariant 2.2: close with a wait shorter than the hold returns within it; the grant ends at its instant")
	void closeWithAWaitShorterThanTheHoldLeavesTheGrantToItsInstant() {
		String key = fresh();
		Duration term = Duration.ofSeconds(6);
		Duration hold = Duration.ofSeconds(5);
		long asked = System.nanoTime();
		assertThat(this.template.tryRun(LeaseRequest.of(key, term).withHoldAtLeast(hold), (lease) -> {
		})).isTrue();
		this.template.close(Duration.ofMillis(100));
		// The order of events, not a speed: close came back while the hold still ran.
		assertThat(Duration.ofNanos(System.nanoTime() - asked)).as("time from the take until close returned")
			.isLessThan(hold);
		assertThat(tryTakeElsewhere(key, Duration.ofMillis(1))).as("taken elsewhere after close").isFalse();
		await().atMost(Duration.ofSeconds(10)).until(() -> tryTakeElsewhere(key, Duration.ofMillis(1)));
		assertThat(this.host.calls()).containsExactly("tryTake " + key, "remaining " + key);
	}

	@Test
	void closeWithANegativeWaitIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.template.close(Duration.ofMillis(-1)))
			.withMessageContaining("wait");
	}

	@Test
	void callAsyncCompletesWithItsStageAndReleasesWhenTheGrantIsOldEnough() {
		String key = fresh();
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = this.template
			.callAsync(LeaseRequest.of(key, TERM).withHoldAtLeast(Duration.ofSeconds(5)), (lease) -> work);
		work.complete("done");
		assertThat(result.join()).isEqualTo("done");
		assertThat(tryTakeElsewhere(key, Duration.ofMillis(1))).isFalse();
		assertThat(this.host.calls()).containsExactly("take " + key, "remaining " + key);
	}

	@Test
	void nestedTakeOfAKeyStillHeldByTheThreadIsStillRefused() {
		String key = fresh();
		LeaseRequest request = LeaseRequest.of(key, TERM).withHoldAtLeast(HOLD);
		assertThatExceptionOfType(ReentrantTakeException.class)
			.isThrownBy(() -> this.template.run(request, (outer) -> this.template.run(request, (inner) -> {
			})));
	}

	private boolean tryTakeElsewhere(String key, Duration duration) {
		return this.inner.tryTake(LeaseKey.of(key), LeaseHolder.of("elsewhere-" + fresh()), duration) instanceof Taken;
	}

	private static String fresh() {
		return UUID.randomUUID().toString();
	}

	static final class MutableClock implements InstantSource {

		private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));

		@Override
		public Instant instant() {
			return this.now.get();
		}

		void advance(Duration duration) {
			this.now.updateAndGet((instant) -> instant.plus(duration));
		}

	}

}
