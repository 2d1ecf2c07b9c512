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

package dev.lease.aop;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import dev.lease.Lease;
import dev.lease.LeaseExpiredException;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.LeaseUnavailableException;
import dev.lease.ReentrantTakeException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.template.LeaseStack;
import dev.lease.template.OnOverrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeasedMethodInterceptor}, applied by {@link LeasedAdvisor} in a real
 * application context over the in-memory host.
 *
 * @author Lease contributors
 */
class LeasedMethodInterceptorTests {

	private final RecordingLeaseHost host = new RecordingLeaseHost(new InMemoryLeaseHost());

	private final List<AnnotationConfigApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void closeContexts() {
		this.contexts.forEach(AnnotationConfigApplicationContext::close);
	}

	@Test
	@DisplayName("Operation 1, 11: the key is taken before the method runs and released when it returns")
	void takeRunsMethodUnderLeaseAndReleasesOnReturn() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String id = fresh();
		assertThat(jobs.settle(id)).isEqualTo("settled " + id);
		Lease seen = jobs.seen();
		assertThat(seen).isNotNull();
		assertThat(seen.key()).isEqualTo(LeaseKey.of("order:" + id));
		assertThat(seen.holder().asString()).startsWith("test-app@host:1/");
		assertThat(this.host.calls()).containsExactly("take order:" + id, "release order:" + id);
		assertThat(this.host.remaining(seen.key(), seen.holder())).isEmpty();
		assertThat(LeaseStack.innermost()).isNull();
	}

	@Test
	@DisplayName("Invariant 5: a take whose answer was lost at the host is given back, so no grant stands that nobody uses")
	void takeWhoseAnswerWasLostIsGivenBack() {
		InMemoryLeaseHost inner = new InMemoryLeaseHost();
		LeaseHost answerLost = new RecordingLeaseHost(inner) {

			@Override
			public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
				super.take(key, holder, duration);
				throw new LeaseHostException("the connection closed before the answer arrived");
			}

		};
		Jobs jobs = context(answerLost, OnOverrun.WARN, Jobs.class).getBean(Jobs.class);
		String id = fresh();
		assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> jobs.settle(id));
		assertThat(inner.grants(100)).noneMatch((lease) -> lease.key().equals(LeaseKey.of("order:" + id)));
		assertThat(inner.tryTake(LeaseKey.of("order:" + id), LeaseHolder.of("next"), Duration.ofSeconds(1)))
			.isInstanceOf(Taken.class);
	}

	@Test
	void eachCallGetsAFreshHolder() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String id = fresh();
		jobs.settle(id);
		LeaseHolder first = jobs.seen().holder();
		jobs.settle(id);
		assertThat(jobs.seen().holder()).isNotEqualTo(first);
	}

	@Test
	void releaseHappensWhenTheMethodThrows() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String key = fresh();
		assertThatIllegalStateException().isThrownBy(() -> jobs.fail(key)).withMessage("boom");
		assertThat(this.host.calls()).endsWith("release " + key);
		assertThat(this.host.grants(100)).noneMatch((lease) -> lease.key().equals(LeaseKey.of(key)));
	}

	@Test
	@DisplayName("Operation 7: a try take on a held key throws LeaseUnavailableException naming the key")
	void tryTakeOnHeldKeyThrowsLeaseUnavailableException() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String key = holdElsewhere();
		assertThatExceptionOfType(LeaseUnavailableException.class).isThrownBy(() -> jobs.tryTake(key))
			.withMessageContaining(key)
			.withMessageContaining("held by another holder");
		assertThat(jobs.runs()).hasValue(0);
	}

	@Test
	@DisplayName("Operation 7: a try take on a held key with SKIP does not run the method and returns null")
	void tryTakeOnHeldKeyWithSkipDoesNotRunTheMethod() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String key = holdElsewhere();
		assertThat(jobs.skip(key)).isNull();
		assertThat(jobs.skipOptional(key)).isEmpty();
		jobs.skipVoid(key);
		assertThat(jobs.runs()).hasValue(0);
		assertThat(this.host.calls()).noneMatch((call) -> call.startsWith("release"));
	}

	@Test
	void tryTakeOnFreeKeyWithSkipRunsTheMethod() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String key = fresh();
		assertThat(jobs.skip(key)).isEqualTo("ran");
		assertThat(jobs.skipOptional(key)).contains("ran");
		assertThat(jobs.runs()).hasValue(2);
	}

	@Test
	@DisplayName("Operation 2: a take waits while the key is held and runs once the grant passes")
	void takeWaitsForHeldKeyAndRunsWhenItFrees() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String id = fresh();
		hold("order:" + id, Duration.ofMillis(300));
		assertThat(jobs.settle(id)).isEqualTo("settled " + id);
		assertThat(jobs.runs()).hasValue(1);
	}

	@Test
	@DisplayName("Operation 4: a take whose arrival term runs out behind an earlier waiter throws, or with SKIP skips")
	void takeUnavailableForTheArrivalTermThrowsOrSkips() throws Exception {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		for (boolean skip : new boolean[] { false, true }) {
			String key = fresh();
			hold(key, Duration.ofMillis(500));
			// An earlier waiter queues first and is handed the key when the grant passes.
			Thread earlier = new Thread(() -> {
				try {
					this.host.take(LeaseKey.of(key), LeaseHolder.of("earlier-" + fresh()), Duration.ofSeconds(30));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			earlier.start();
			await().atMost(Duration.ofSeconds(5)).until(() -> earlier.getState() == Thread.State.TIMED_WAITING);
			if (skip) {
				assertThat(jobs.takeOrSkip(key)).isNull();
			}
			else {
				assertThatExceptionOfType(LeaseUnavailableException.class).isThrownBy(() -> jobs.fail(key))
					.withMessageContaining("stayed held for the whole arrival term");
			}
			earlier.join(5000);
		}
		assertThat(jobs.runs()).hasValue(0);
	}

	@Test
	@DisplayName("Non-goal 1: a nested @Leased on a key the thread holds fails before the host is asked")
	void nestedLeasedOnHeldKeyIsRefusedBeforeTheHostIsAsked() {
		AnnotationConfigApplicationContext context = context(OnOverrun.WARN);
		Nesting nesting = context.getBean(Nesting.class);
		String id = fresh();
		assertThatExceptionOfType(ReentrantTakeException.class).isThrownBy(() -> nesting.run("order:" + id, id));
		assertThat(this.host.calls()).containsExactly("take order:" + id, "release order:" + id);
		assertThat(context.getBean(Jobs.class).runs()).hasValue(0);
	}

	@Test
	void nestedLeasedOnDifferentKeysReleasesInnermostFirst() {
		Nesting nesting = context(OnOverrun.WARN).getBean(Nesting.class);
		String outer = fresh();
		String id = fresh();
		nesting.run(outer, id);
		assertThat(this.host.calls()).containsExactly("take " + outer, "take order:" + id, "release order:" + id,
				"release " + outer);
		assertThat(nesting.innermostDuringOuter().key()).isEqualTo(LeaseKey.of(outer));
	}

	@Test
	@DisplayName("Operation 12, Non-goal 11: a release answered NotHeld is an overrun; with WARN the result stands")
	void overrunWithWarnReturnsTheResult() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String key = fresh();
		assertThat(jobs.overrun(key, this.host)).isEqualTo("done");
	}

	@Test
	@DisplayName("Operation 12, Non-goal 11: a release answered NotHeld is an overrun; with FAIL it throws")
	void overrunWithFailThrowsLeaseExpiredException() {
		Jobs jobs = context(OnOverrun.FAIL).getBean(Jobs.class);
		String key = fresh();
		assertThatExceptionOfType(LeaseExpiredException.class).isThrownBy(() -> jobs.overrun(key, this.host))
			.withMessageContaining(key)
			.satisfies((ex) -> assertThat(ex.getLease().key()).isEqualTo(LeaseKey.of(key)));
	}

	@Test
	@DisplayName("Operation 2: a grant handed over after its instant passed is not acquired")
	void takenWithPassedInstantCountsAsNotAcquired() {
		MutableClock clock = new MutableClock();
		StallingLeaseHost stalling = new StallingLeaseHost(new InMemoryLeaseHost(clock), clock);
		Jobs jobs = context(stalling, OnOverrun.WARN, Jobs.class).getBean(Jobs.class);
		String id = fresh();
		assertThatExceptionOfType(LeaseUnavailableException.class).isThrownBy(() -> jobs.shortTerm(id))
			.withMessageContaining("had passed");
		assertThat(jobs.runs()).hasValue(0);
	}

	@Test
	void takeAnsweredPromptlyIsNotCheckedAgain() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String id = fresh();
		jobs.settle(id);
		assertThat(this.host.calls()).containsExactly("take order:" + id, "release order:" + id);
	}

	@Test
	void stableHolderFromExpression() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String key = fresh();
		assertThat(jobs.fixedHolder(key).holder()).isEqualTo(LeaseHolder.of("fixed-holder"));
	}

	@Test
	@DisplayName("Identity 2: a byte[] key is taken byte for byte")
	void byteArrayKeyIsUsedAsIs() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		byte[] key = { (byte) 0xff, 0x00, 0x41 };
		assertThat(jobs.bytes(key).key()).isEqualTo(LeaseKey.of(key));
	}

	@Test
	void keyExpressionMayReferToBeans() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		assertThat(jobs.beanKey().key()).isEqualTo(LeaseKey.of("from-bean"));
	}

	@Test
	void durationPlaceholderIsResolved() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		Duration remaining = jobs.placeholder(fresh(), this.host);
		assertThat(remaining).isGreaterThan(Duration.ofSeconds(40)).isLessThanOrEqualTo(Duration.ofSeconds(45));
	}

	@Test
	void nullKeyIsAClearErrorBeforeAnyTake() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		assertThatIllegalArgumentException().isThrownBy(() -> jobs.settleRaw(null))
			.withMessageContaining("Jobs.settleRaw()")
			.withMessageContaining("yielded null");
		assertThatIllegalArgumentException().isThrownBy(() -> jobs.settleRaw(""))
			.withMessageContaining("yielded an empty value");
		assertThat(this.host.calls()).isEmpty();
	}

	@Test
	void malformedKeyExpressionFailsAtStartUpNamingTheMethod() {
		assertThatExceptionOfType(BeanCreationException.class)
			.isThrownBy(() -> context(this.host, OnOverrun.WARN, BrokenKey.class))
			.withStackTraceContaining("BrokenKey.run()")
			.withStackTraceContaining("malformed 'key' expression");
	}

	@Test
	void malformedDurationFailsAtStartUpNamingTheMethod() {
		assertThatExceptionOfType(BeanCreationException.class)
			.isThrownBy(() -> context(this.host, OnOverrun.WARN, BrokenDuration.class))
			.withStackTraceContaining("BrokenDuration.run()")
			.withStackTraceContaining("invalid duration '30 parsecs'");
	}

	@Test
	void skipOnPrimitiveResultFailsAtStartUp() {
		assertThatExceptionOfType(BeanCreationException.class)
			.isThrownBy(() -> context(this.host, OnOverrun.WARN, BrokenSkip.class))
			.withStackTraceContaining("BrokenSkip.count()")
			.withStackTraceContaining("cannot return a int");
	}

	@Test
	void completionStageIsReleasedWhenItCompletes() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String key = fresh();
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = jobs.later(key, work);
		// taken through the host's non-blocking view: the call returns before the take
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.host.grants(100).stream().anyMatch((lease) -> lease.key().equals(LeaseKey.of(key))));
		assertThat(this.host.calls()).doesNotContain("release " + key);
		work.complete("later");
		assertThat(result.join()).isEqualTo("later");
		assertThat(this.host.calls()).endsWith("release " + key);
		assertThat(LeaseStack.innermost()).isNull();
	}

	@Test
	void completionStageFailingIsReleased() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String key = fresh();
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = jobs.later(key, work);
		work.completeExceptionally(new IllegalStateException("failed later"));
		await().atMost(Duration.ofSeconds(5)).until(result::isDone);
		assertThat(result).isCompletedExceptionally();
		assertThat(this.host.calls()).endsWith("release " + key);
	}

	@Test
	void skippedCompletionStageCompletesWithNull() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String key = holdElsewhere();
		assertThat(jobs.laterOrSkip(key, new CompletableFuture<>()).join()).isNull();
	}

	@Test
	void monoIsReleasedWhenItCompletes() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String key = fresh();
		Sinks.One<String> sink = Sinks.one();
		Mono<String> mono = jobs.mono(key, sink);
		assertThat(this.host.calls()).isEmpty();
		CompletableFuture<String> result = mono.toFuture();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.host.grants(100).stream().anyMatch((lease) -> lease.key().equals(LeaseKey.of(key))));
		assertThat(this.host.calls()).doesNotContain("release " + key);
		sink.tryEmitValue("reactive");
		assertThat(result.join()).isEqualTo("reactive");
		await().atMost(Duration.ofSeconds(5)).until(() -> this.host.calls().contains("release " + key));
	}

	@Test
	void fluxIsReleasedWhenItCompletes() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String key = fresh();
		assertThat(jobs.flux(key).collectList().block(Duration.ofSeconds(5))).containsExactly("a", "b");
		await().atMost(Duration.ofSeconds(5)).until(() -> this.host.calls().contains("release " + key));
	}

	@Test
	void monoOnHeldKeyWithSkipIsEmptyAndWithThrowFails() {
		Jobs jobs = context(OnOverrun.WARN).getBean(Jobs.class);
		String key = holdElsewhere();
		assertThat(jobs.monoOrSkip(key).blockOptional(Duration.ofSeconds(5))).isEmpty();
		assertThatExceptionOfType(LeaseUnavailableException.class)
			.isThrownBy(() -> jobs.monoOrThrow(key).block(Duration.ofSeconds(5)));
		assertThat(jobs.runs()).hasValue(0);
	}

	private AnnotationConfigApplicationContext context(OnOverrun onOverrun) {
		return context(this.host, onOverrun, Jobs.class, Nesting.class);
	}

	private AnnotationConfigApplicationContext context(LeaseHost host, OnOverrun onOverrun, Class<?>... beans) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		this.contexts.add(context);
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("test", Map.of("job.duration", "45s")));
		context.registerBean(LeaseHost.class, () -> host);
		context.registerBean("keyFromBean", String.class, () -> "from-bean");
		context.registerBean(DefaultAdvisorAutoProxyCreator.class, () -> {
			DefaultAdvisorAutoProxyCreator creator = new DefaultAdvisorAutoProxyCreator();
			creator.setProxyTargetClass(true);
			return creator;
		});
		context.registerBean(LeasedAdvisor.class,
				() -> new LeasedAdvisor(new LeasedMethodInterceptor(() -> context.getBean(LeaseHost.class),
						"test-app@host:1", onOverrun, context.getBeanFactory())));
		for (Class<?> bean : beans) {
			context.registerBean(StringUtils.uncapitalize(bean.getSimpleName()), bean);
		}
		context.refresh();
		return context;
	}

	private String holdElsewhere() {
		String key = fresh();
		hold(key, Duration.ofSeconds(30));
		return key;
	}

	private void hold(String key, Duration duration) {
		assertThat(this.host.tryTake(LeaseKey.of(key), LeaseHolder.of("elsewhere-" + fresh()), duration))
			.isInstanceOf(Taken.class);
		this.host.calls().clear();
	}

	private static String fresh() {
		return UUID.randomUUID().toString();
	}

	static class Jobs {

		final AtomicInteger runs = new AtomicInteger();

		final AtomicReference<@Nullable Lease> seen = new AtomicReference<>();

		AtomicInteger runs() {
			return this.runs;
		}

		@Nullable Lease seen() {
			return this.seen.get();
		}

		@Leased(key = "'order:' + #orderId", duration = "30s")
		String settle(String orderId) {
			this.runs.incrementAndGet();
			this.seen.set(LeaseStack.innermost());
			return "settled " + orderId;
		}

		@Leased(key = "'order:' + #orderId", duration = "200ms")
		String shortTerm(String orderId) {
			this.runs.incrementAndGet();
			return "settled " + orderId;
		}

		@Leased(key = "#key", duration = "30s", onUnavailable = OnUnavailable.SKIP)
		@Nullable String takeOrSkip(String key) {
			this.runs.incrementAndGet();
			return "ran";
		}

		@Leased(key = "#key", duration = "30s")
		String settleRaw(@Nullable String key) {
			return "settled";
		}

		@Leased(key = "#key", duration = "30s")
		void fail(String key) {
			throw new IllegalStateException("boom");
		}

		@Leased(key = "#key", duration = "30s", mode = LeaseMode.TRY_TAKE)
		String tryTake(String key) {
			this.runs.incrementAndGet();
			return "ran";
		}

		@Leased(key = "#key", duration = "30s", mode = LeaseMode.TRY_TAKE, onUnavailable = OnUnavailable.SKIP)
		@Nullable String skip(String key) {
			this.runs.incrementAndGet();
			return "ran";
		}

		@Leased(key = "#key", duration = "30s", mode = LeaseMode.TRY_TAKE, onUnavailable = OnUnavailable.SKIP)
		Optional<String> skipOptional(String key) {
			this.runs.incrementAndGet();
			return Optional.of("ran");
		}

		@Leased(key = "#key", duration = "30s", mode = LeaseMode.TRY_TAKE, onUnavailable = OnUnavailable.SKIP)
		void skipVoid(String key) {
			this.runs.incrementAndGet();
		}

		@Leased(key = "#key", duration = "30s", holder = "'fixed-holder'")
		Lease fixedHolder(String key) {
			return LeaseStack.innermost();
		}

		@Leased(key = "#key", duration = "30s")
		Lease bytes(byte[] key) {
			return LeaseStack.innermost();
		}

		@Leased(key = "@keyFromBean", duration = "30s")
		Lease beanKey() {
			return LeaseStack.innermost();
		}

		@Leased(key = "#key", duration = "${job.duration}")
		Duration placeholder(String key, LeaseHost host) {
			Lease lease = LeaseStack.innermost();
			return host.remaining(lease.key(), lease.holder()).orElseThrow();
		}

		@Leased(key = "#key", duration = "200ms")
		String overrun(String key, LeaseHost host) {
			Lease lease = LeaseStack.innermost();
			await().atMost(Duration.ofSeconds(5)).until(() -> host.remaining(lease.key(), lease.holder()).isEmpty());
			return "done";
		}

		@Leased(key = "#key", duration = "30s")
		CompletableFuture<String> later(String key, CompletableFuture<String> work) {
			return work;
		}

		@Leased(key = "#key", duration = "30s", mode = LeaseMode.TRY_TAKE, onUnavailable = OnUnavailable.SKIP)
		CompletableFuture<String> laterOrSkip(String key, CompletableFuture<String> work) {
			return work;
		}

		@Leased(key = "#key", duration = "30s")
		Mono<String> mono(String key, Sinks.One<String> sink) {
			return sink.asMono();
		}

		@Leased(key = "#key", duration = "30s")
		Flux<String> flux(String key) {
			return Flux.just("a", "b");
		}

		@Leased(key = "#key", duration = "30s", mode = LeaseMode.TRY_TAKE, onUnavailable = OnUnavailable.SKIP)
		Mono<String> monoOrSkip(String key) {
			this.runs.incrementAndGet();
			return Mono.just("ran");
		}

		@Leased(key = "#key", duration = "30s", mode = LeaseMode.TRY_TAKE)
		Mono<String> monoOrThrow(String key) {
			this.runs.incrementAndGet();
			return Mono.just("ran");
		}

	}

	static class Nesting {

		final AtomicReference<@Nullable Lease> innermostDuringOuter = new AtomicReference<>();

		private final Jobs jobs;

		Nesting(Jobs jobs) {
			this.jobs = jobs;
		}

		@Nullable Lease innermostDuringOuter() {
			return this.innermostDuringOuter.get();
		}

		@Leased(key = "#outer", duration = "30s")
		void run(String outer, String id) {
			this.innermostDuringOuter.set(LeaseStack.innermost());
			this.jobs.settle(id);
		}

	}

	static class BrokenKey {

		@Leased(key = "'unclosed", duration = "30s")
		void run() {
		}

	}

	static class BrokenDuration {

		@Leased(key = "'key'", duration = "30 parsecs")
		void run() {
		}

	}

	static class BrokenSkip {

		@Leased(key = "'key'", duration = "30s", onUnavailable = OnUnavailable.SKIP)
		int count() {
			return 1;
		}

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

	// Stands for a client that stalled longer than its whole term between being granted
	// and hearing the answer: the host's clock moves on past the grant's instant.
	static final class StallingLeaseHost extends RecordingLeaseHost {

		private final MutableClock clock;

		StallingLeaseHost(LeaseHost host, MutableClock clock) {
			super(host);
			this.clock = clock;
		}

		@Override
		public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
			TakeResult result = super.take(key, holder, duration);
			// The client stalls (on purpose) for its whole term before hearing the
			// answer;
			// the host's clock moves on past the grant's instant meanwhile.
			Thread.sleep(duration.toMillis());
			this.clock.advance(duration.multipliedBy(2));
			return result;
		}

	}

}
