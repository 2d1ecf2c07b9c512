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

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.AsyncLeaseHost;
import dev.lease.GrantsPage;
import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.QueuedTakes;
import dev.lease.ReleaseResult;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ObservedLeaseHost}.
 *
 * @author Lease contributors
 */
class ObservedLeaseHostTests {

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final List<String> observed = new CopyOnWriteArrayList<>();

	private final ObservedLeaseHost host = new ObservedLeaseHost(new InMemoryLeaseHost(), "memory", this.meters,
			observations());

	@Test
	void takeAndReleaseAreObservedByOperationAndOutcome() throws InterruptedException {
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder holder = LeaseHolder.of(fresh());
		assertThat(this.host.take(key, holder, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
		assertThat(this.meters.get("lease.active").tag("lease.host", "memory").gauge().value()).isEqualTo(1.0);
		assertThat(this.host.release(key, holder)).isInstanceOf(Released.class);
		assertThat(this.observed).containsExactly("lease.take memory taken", "lease.release memory released");
		assertThat(this.meters.get("lease.active").gauge().value()).isZero();
	}

	@Test
	@DisplayName("Operation 1, 11: the non-blocking view's take and release are observed and metered as the blocking ones are")
	void asyncTakeAndReleaseAreObservedByOperationAndOutcome() {
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder holder = LeaseHolder.of(fresh());
		AsyncLeaseHost async = this.host.async();
		assertThat(async.take(key, holder, Duration.ofSeconds(30)).join()).isInstanceOf(Taken.class);
		assertThat(this.meters.get("lease.active").tag("lease.host", "memory").gauge().value()).isEqualTo(1.0);
		assertThat(async.tryTake(key, LeaseHolder.of(fresh()), Duration.ofSeconds(30)).join()).isInstanceOf(Held.class);
		assertThat(async.release(key, holder).join()).isInstanceOf(Released.class);
		assertThat(this.observed).containsExactly("lease.take memory taken", "lease.try.take memory held",
				"lease.release memory released");
		assertThat(this.meters.get("lease.active").gauge().value()).isZero();
	}

	@Test
	@DisplayName("Operation 7: a try take on a held key is observed with outcome held")
	void tryTakeOnHeldKeyIsObservedAsHeld() {
		LeaseKey key = LeaseKey.of(fresh());
		this.host.tryTake(key, LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		assertThat(this.host.tryTake(key, LeaseHolder.of(fresh()), Duration.ofSeconds(30))).isInstanceOf(Held.class);
		assertThat(this.observed).containsExactly("lease.try.take memory taken", "lease.try.take memory held");
	}

	@Test
	@DisplayName("Grants 8: a grant's start is the one the target keeps, taken through this host or not; a grant that no longer stands has none")
	void grantedAtIsTheTargetsStart() throws InterruptedException {
		Instant now = Instant.parse("2026-12-01T10:00:00Z");
		InMemoryLeaseHost target = new InMemoryLeaseHost(InstantSource.fixed(now));
		ObservedLeaseHost host = new ObservedLeaseHost(target, "memory", this.meters, ObservationRegistry.NOOP);
		LeaseKey tried = LeaseKey.of(fresh());
		LeaseKey taken = LeaseKey.of(fresh());
		LeaseKey elsewhere = LeaseKey.of(fresh());
		LeaseHolder holder = LeaseHolder.of(fresh());
		host.tryTake(tried, holder, Duration.ofSeconds(30));
		host.take(taken, holder, Duration.ofMinutes(5));
		target.tryTake(elsewhere, holder, Duration.ofSeconds(30));
		assertThat(host.grantedAt(host.grant(tried).orElseThrow())).hasValue(now);
		assertThat(host.grantedAt(host.grant(taken).orElseThrow())).hasValue(now);
		assertThat(host.grantedAt(host.grant(elsewhere).orElseThrow())).as("taken through the target").hasValue(now);
		assertThat(host.grantedAt(new Lease(tried, holder, now.plusSeconds(31)))).as("another grant of the key")
			.isEmpty();
		host.release(tried, holder);
		assertThat(host.grantedAt(new Lease(tried, holder, now.plusSeconds(30)))).as("released").isEmpty();
	}

	@Test
	void remainingAndGrantsAreObserved() {
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder holder = LeaseHolder.of(fresh());
		this.host.remaining(key, holder);
		this.host.tryTake(key, holder, Duration.ofSeconds(30));
		this.host.remaining(key, holder);
		this.host.grants(10);
		assertThat(this.observed).containsExactly("lease.remaining memory not-held", "lease.try.take memory taken",
				"lease.remaining memory held", "lease.grants memory listed");
	}

	@Test
	void aFailingCallIsObservedWithOutcomeErrorAndTheError() {
		ObservedLeaseHost failing = new ObservedLeaseHost(new FailingLeaseHost(), "failing", this.meters,
				observations());
		assertThatExceptionOfType(LeaseHostException.class)
			.isThrownBy(() -> failing.tryTake(LeaseKey.of(fresh()), LeaseHolder.of(fresh()), Duration.ofSeconds(1)));
		assertThat(this.observed).containsExactly("lease.try.take failing error LeaseHostException");
	}

	@Test
	@DisplayName("Operation 7, 14: an error thrown by the host, or by its view instead of failing the future, is "
			+ "observed with outcome error and the error")
	void anErrorIsObservedWithOutcomeErrorAndTheError() {
		AsyncLeaseHost throwing = (AsyncLeaseHost) Proxy.newProxyInstance(getClass().getClassLoader(),
				new Class<?>[] { AsyncLeaseHost.class }, (instance, method, arguments) -> {
					throw new AssertionError("broken view");
				});
		ObservedLeaseHost failing = new ObservedLeaseHost(new FailingLeaseHost() {

			@Override
			public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
				throw new AssertionError("broken");
			}

			@Override
			public AsyncLeaseHost async() {
				return throwing;
			}

		}, "failing", this.meters, observations());
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> failing.tryTake(LeaseKey.of(fresh()), LeaseHolder.of(fresh()), Duration.ofSeconds(1)))
			.withMessage("broken");
		assertThat(failing.async().release(LeaseKey.of(fresh()), LeaseHolder.of(fresh())))
			.failsWithin(Duration.ofSeconds(1))
			.withThrowableOfType(ExecutionException.class)
			.withCauseInstanceOf(AssertionError.class);
		assertThat(this.observed).containsExactly("lease.try.take failing error AssertionError",
				"lease.release failing error AssertionError");
	}

	@Test
	@DisplayName("Waiting 1: how many takes wait for a key is the host's answer, passed through and not observed")
	void waitingIsTheHostsAnswerPassedThrough() throws Exception {
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder holder = LeaseHolder.of(fresh());
		LeaseHolder waiter = LeaseHolder.of(fresh());
		this.host.tryTake(key, holder, Duration.ofSeconds(60));
		assertThat(this.host.waiting(key)).contains(QueuedTakes.NONE);
		Thread waiting = new Thread(() -> {
			try {
				this.host.take(key, waiter, Duration.ofSeconds(60));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		waiting.start();
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(this.host.waiting(key))
				.hasValueSatisfying((queued) -> assertThat(queued.count()).isEqualTo(1)));
		this.host.release(key, holder);
		waiting.join(Duration.ofSeconds(30).toMillis());
		assertThat(this.host.waiting(key)).contains(QueuedTakes.NONE);
		this.host.release(key, waiter);
		// the waiter's take and the release that handed it the key end in either order
		assertThat(this.observed).containsExactlyInAnyOrder("lease.try.take memory taken",
				"lease.release memory released", "lease.take memory taken", "lease.release memory released");
	}

	@Test
	@DisplayName("Operation 12, Non-goal 11: a release answered NotHeld after the grant passed counts an overrun")
	void releaseAfterTheGrantPassedCountsAnOverrun() {
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder holder = LeaseHolder.of(fresh());
		this.host.tryTake(key, holder, Duration.ofMillis(50));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.host.remaining(key, holder).isEmpty());
		assertThat(this.host.release(key, holder)).isInstanceOf(NotHeld.class);
		assertThat(this.meters.get("lease.overrun").tag("lease.host", "memory").counter().count()).isEqualTo(1.0);
		assertThat(this.observed).endsWith("lease.release memory not-held");
		assertThat(this.meters.get("lease.active").gauge().value()).isZero();
	}

	@Test
	@DisplayName("Operation 14: a release by a party that never held is NotHeld, but no overrun")
	void releaseByANonHolderIsNotAnOverrun() {
		assertThat(this.host.release(LeaseKey.of(fresh()), LeaseHolder.of(fresh()))).isInstanceOf(NotHeld.class);
		assertThat(this.meters.get("lease.overrun").counter().count()).isZero();
	}

	@Test
	void grantsNeverReleasedLeaveTheActiveGaugeAtTheirInstantAndAreForgottenLater() {
		MutableClock clock = new MutableClock();
		ObservedLeaseHost observedHost = new ObservedLeaseHost(new InMemoryLeaseHost(clock), "clocked", this.meters,
				ObservationRegistry.NOOP, null, clock);
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder early = LeaseHolder.of(fresh());
		LeaseKey otherKey = LeaseKey.of(fresh());
		LeaseHolder late = LeaseHolder.of(fresh());
		Taken taken = (Taken) observedHost.tryTake(key, early, Duration.ofSeconds(30));
		observedHost.tryTake(otherKey, late, Duration.ofSeconds(30));
		Gauge active = this.meters.get("lease.active").tag("lease.host", "clocked").gauge();
		Counter overruns = this.meters.get("lease.overrun").tag("lease.host", "clocked").counter();
		assertThat(active.value()).isEqualTo(2.0);
		clock.now = taken.lease().expiresAt().plusMillis(1);
		assertThat(active.value()).isZero();
		// released soon after its instant: remembered, an overrun
		assertThat(observedHost.release(key, early)).isInstanceOf(NotHeld.class);
		assertThat(overruns.count()).isEqualTo(1.0);
		// released long after: forgotten, so the memory of grants is bounded
		clock.now = taken.lease().expiresAt().plus(GrantsTakenHere.OVERRUN_MEMORY).plusSeconds(1);
		assertThat(active.value()).isZero();
		assertThat(observedHost.release(otherKey, late)).isInstanceOf(NotHeld.class);
		assertThat(overruns.count()).isEqualTo(1.0);
	}

	@Test
	void noMeterIsTaggedWithKeyOrHolder() {
		LeaseKey key = LeaseKey.of(fresh());
		LeaseHolder holder = LeaseHolder.of(fresh());
		this.host.tryTake(key, holder, Duration.ofSeconds(30));
		this.host.release(key, holder);
		// lease.held is also tagged by its outcome, one of two values
		assertThat(this.meters.getMeters()).flatMap((meter) -> meter.getId().getTags())
			.allSatisfy((tag) -> assertThat(tag.getKey() + "=" + tag.getValue()).isIn("lease.host=memory",
					"lease.outcome=released", "lease.outcome=not-held"));
		assertThat(this.meters.getMeters()).extracting(Meter::getId)
			.extracting(Meter.Id::getName)
			.containsOnly("lease.overrun", "lease.active", "lease.waiting", "lease.waiting.oldest", "lease.held");
	}

	@Test
	void aConventionReplacesTheDefaultKeyValues() {
		LeaseObservationConvention convention = new DefaultLeaseObservationConvention() {

			@Override
			public KeyValues getLowCardinalityKeyValues(LeaseObservationContext context) {
				return super.getLowCardinalityKeyValues(context).and("team", "payments");
			}

		};
		List<String> teams = new CopyOnWriteArrayList<>();
		ObservationRegistry registry = recording(teams,
				(context) -> context.getName() + " " + keyValue(context, "team"));
		new ObservedLeaseHost(new InMemoryLeaseHost(), "memory", this.meters, registry, convention).grants(1);
		assertThat(teams).containsExactly("lease.grants payments");
	}

	@Test
	void anObservedHostIsNotObservedAgain() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ObservedLeaseHost(this.host, "memory", this.meters, ObservationRegistry.NOOP));
	}

	@Test
	void unwrapAnswersTheObservedHost() {
		InMemoryLeaseHost target = new InMemoryLeaseHost();
		assertThat(ObservedLeaseHost
			.unwrap(new ObservedLeaseHost(target, "memory", this.meters, ObservationRegistry.NOOP))).isSameAs(target);
		assertThat(ObservedLeaseHost.unwrap(target)).isSameAs(target);
	}

	private ObservationRegistry observations() {
		return recording(this.observed, (context) -> {
			Throwable error = context.getError();
			return context.getName() + " " + keyValue(context, "lease.host") + " " + keyValue(context, "lease.outcome")
					+ ((error != null) ? " " + error.getClass().getSimpleName() : "");
		});
	}

	// A registry that adds a line for each observation stopped.
	private static ObservationRegistry recording(List<String> lines, Function<Observation.Context, String> line) {
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

			@Override
			public void onStop(Observation.Context context) {
				lines.add(line.apply(context));
			}

		});
		return registry;
	}

	private static String keyValue(Observation.Context context, String key) {
		KeyValue keyValue = context.getLowCardinalityKeyValue(key);
		return (keyValue != null) ? keyValue.getValue() : "none";
	}

	private static String fresh() {
		return UUID.randomUUID().toString();
	}

	static final class MutableClock implements InstantSource {

		volatile Instant now = Instant.now();

		@Override
		public Instant instant() {
			return this.now;
		}

	}

	static class FailingLeaseHost implements LeaseHost {

		@Override
		public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) {
			throw new LeaseHostException("down");
		}

		@Override
		public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
			throw new LeaseHostException("down");
		}

		@Override
		public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
			throw new LeaseHostException("down");
		}

		@Override
		public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
			throw new LeaseHostException("down");
		}

		@Override
		public List<Lease> grants(int limit) {
			throw new LeaseHostException("down");
		}

		@Override
		public GrantsPage grants(@Nullable String cursor, int limit) {
			throw new LeaseHostException("down");
		}

		@Override
		public Optional<Lease> grant(LeaseKey key) {
			throw new LeaseHostException("down");
		}

	}

}
