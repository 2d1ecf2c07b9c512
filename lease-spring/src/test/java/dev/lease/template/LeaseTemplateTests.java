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

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;

import dev.lease.Allowance;
import dev.lease.Fence;
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
import dev.lease.annotation.Fenced;
import dev.lease.annotation.LeaseMode;
import dev.lease.aop.FencedMethodInterceptor;
import dev.lease.aop.RecordingLeaseHost;
import dev.lease.fence.BoundFence;
import dev.lease.fence.FenceAllowances;
import dev.lease.fence.FenceBinding;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeaseTemplate}: the one path of leased work, which {@code @Leased}
 * also takes.
 *
 * @author Lease contributors
 */
class LeaseTemplateTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private final RecordingLeaseHost host = new RecordingLeaseHost(new InMemoryLeaseHost());

	private final LeaseTemplate template = new LeaseTemplate(this.host, "test@host:1", OnOverrun.WARN);

	@AfterEach
	void close() {
		this.template.close();
	}

	@Test
	@DisplayName("Operation 1, 11: call takes the key, runs the work with the grant bound to the thread, and releases")
	void callTakesRunsBoundAndReleases() {
		String key = fresh();
		AtomicReference<@Nullable Lease> bound = new AtomicReference<>();
		Lease lease = this.template.call(LeaseRequest.of(key, TERM), (taken) -> {
			bound.set(LeaseStack.innermost());
			return taken;
		});
		assertThat(bound.get()).isEqualTo(lease);
		assertThat(lease.key()).isEqualTo(LeaseKey.of(key));
		assertThat(lease.holder().asString()).startsWith("test@host:1/");
		assertThat(this.host.calls()).containsExactly("take " + key, "release " + key);
		assertThat(this.host.remaining(lease.key(), lease.holder())).isEmpty();
		assertThat(LeaseStack.innermost()).isNull();
	}

	@Test
	void eachCallGetsAFreshHolderUnlessTheRequestNamesOne() {
		LeaseRequest request = LeaseRequest.of(fresh(), TERM);
		LeaseHolder first = this.template.call(request, Lease::holder);
		assertThat(this.template.call(request, Lease::holder)).isNotEqualTo(first);
		assertThat(this.template.call(request.withHolder(LeaseHolder.of("stable")), Lease::holder))
			.isEqualTo(LeaseHolder.of("stable"));
	}

	@Test
	@DisplayName("Operation 2: run waits while the key is held and runs once the grant passes")
	void runWaitsForAHeldKey() {
		String key = fresh();
		hold(key, Duration.ofMillis(300));
		AtomicReference<@Nullable Lease> ran = new AtomicReference<>();
		this.template.run(LeaseRequest.of(key, TERM), ran::set);
		assertThat(ran.get()).isNotNull();
	}

	@Test
	@DisplayName("Operation 6, 7: tryRun on a held key does not wait, does not run the work, and answers false")
	void tryRunOnAHeldKeyDoesNotRun() {
		String key = fresh();
		hold(key, TERM);
		AtomicReference<@Nullable Lease> ran = new AtomicReference<>();
		assertThat(this.template.tryRun(LeaseRequest.of(key, TERM), ran::set)).isFalse();
		assertThat(ran.get()).isNull();
		assertThat(this.host.calls()).containsExactly("tryTake " + key);
		assertThat(this.template.tryRun(LeaseRequest.of(fresh(), TERM), ran::set)).isTrue();
		assertThat(ran.get()).isNotNull();
	}

	@Test
	@DisplayName("Operation 7: execute with TRY_TAKE on a held key answers why; orElseThrow names the key")
	void executeOnAHeldKeyAnswersWhy() {
		String key = fresh();
		hold(key, TERM);
		LeaseOutcome<String> outcome = this.template.execute(LeaseRequest.of(key, TERM), LeaseMode.TRY_TAKE,
				(lease) -> "ran");
		assertThat(outcome.isTaken()).isFalse();
		assertThat(outcome.value()).isNull();
		assertThat(outcome.reason()).isEqualTo("it is held by another holder");
		assertThatExceptionOfType(LeaseUnavailableException.class).isThrownBy(outcome::orElseThrow)
			.withMessageContaining(key)
			.withMessageContaining("held by another holder");
		LeaseOutcome<String> taken = this.template.execute(LeaseRequest.of(fresh(), TERM), LeaseMode.TRY_TAKE,
				(lease) -> null);
		assertThat(taken.isTaken()).isTrue();
		assertThat(taken.value()).isNull();
	}

	@Test
	@DisplayName("Non-goal 1: a key the thread holds through the template is refused before the host is asked")
	void nestedCallOnAHeldKeyIsRefusedBeforeTheHostIsAsked() {
		String key = fresh();
		assertThatExceptionOfType(ReentrantTakeException.class).isThrownBy(() -> this.template
			.run(LeaseRequest.of(key, TERM), (outer) -> this.template.run(LeaseRequest.of(key, TERM), (inner) -> {
			})));
		assertThat(this.host.calls()).containsExactly("take " + key, "release " + key);
	}

	@Test
	@DisplayName("Non-goal 1: a grant bound by hand counts as held by the thread")
	void grantBoundByHandIsRefusedAsReentrant() {
		String key = fresh();
		Lease lease = ((Taken) this.host.tryTake(LeaseKey.of(key), LeaseHolder.of("by-hand"), TERM)).lease();
		try (LeaseStack.Scope scope = LeaseStack.bind(lease)) {
			assertThatExceptionOfType(ReentrantTakeException.class)
				.isThrownBy(() -> this.template.tryRun(LeaseRequest.of(key, TERM), (taken) -> {
				}));
		}
		assertThat(this.host.calls()).containsExactly("tryTake " + key);
	}

	@Test
	void differentKeysNestAndAreReleasedInnermostFirst() {
		String outer = fresh();
		String inner = fresh();
		Lease innermost = this.template.call(LeaseRequest.of(outer, TERM),
				(lease) -> this.template.call(LeaseRequest.of(inner, TERM), (nested) -> LeaseStack.innermost()));
		assertThat(innermost.key()).isEqualTo(LeaseKey.of(inner));
		assertThat(this.host.calls()).containsExactly("take " + outer, "take " + inner, "release " + inner,
				"release " + outer);
	}

	@Test
	void failureOfTheWorkIsThrownAsItIsAndTheKeyReleased() {
		String key = fresh();
		assertThatIOException().isThrownBy(() -> this.template.call(LeaseRequest.of(key, TERM), (lease) -> {
			throw new IOException("disk full");
		})).withMessage("disk full");
		assertThat(this.host.calls()).containsExactly("take " + key, "release " + key);
		assertThat(LeaseStack.innermost()).isNull();
	}

	@Test
	@DisplayName("Operation 12, Non-goal 11: a release answered NotHeld is an overrun; with WARN the value stands")
	void overrunWithWarnAnswersTheValue() {
		assertThat(this.template.call(LeaseRequest.of(fresh(), Duration.ofMillis(200)), this::outlive))
			.isEqualTo("done");
	}

	@Test
	@DisplayName("Operation 12, Non-goal 11: with FAIL an overrun throws, or is suppressed into the work's failure")
	void overrunWithFailThrowsOrIsSuppressed() {
		try (LeaseTemplate failing = new LeaseTemplate(this.host, "test", OnOverrun.FAIL)) {
			String key = fresh();
			assertThatExceptionOfType(LeaseExpiredException.class)
				.isThrownBy(() -> failing.call(LeaseRequest.of(key, Duration.ofMillis(200)), this::outlive))
				.satisfies((ex) -> assertThat(ex.getLease().key()).isEqualTo(LeaseKey.of(key)));
			assertThatIllegalStateException()
				.isThrownBy(() -> failing.run(LeaseRequest.of(fresh(), Duration.ofMillis(200)), (lease) -> {
					outlive(lease);
					throw new IllegalStateException("failed late");
				}))
				.withMessage("failed late")
				.satisfies((ex) -> assertThat(ex.getSuppressed()).singleElement()
					.isInstanceOf(LeaseExpiredException.class));
		}
	}

	@Test
	@DisplayName("Invariant 5: a take whose answer was lost at the host is given back")
	void takeWhoseAnswerWasLostIsGivenBack() {
		InMemoryLeaseHost inner = new InMemoryLeaseHost();
		LeaseHost answerLost = new RecordingLeaseHost(inner) {

			@Override
			public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
				super.take(key, holder, duration);
				throw new LeaseHostException("the connection closed before the answer arrived");
			}

		};
		String key = fresh();
		try (LeaseTemplate lost = new LeaseTemplate(answerLost)) {
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> lost.run(LeaseRequest.of(key, TERM), (lease) -> {
				}));
		}
		assertThat(inner.grants(100)).noneMatch((lease) -> lease.key().equals(LeaseKey.of(key)));
	}

	@Test
	@DisplayName("Fence 5, 8: a @Fenced call inside the work mints its fence from the template's grant")
	void fencedCallInsideTheWorkMintsFromTheGrant() {
		Allowance allowance = Allowance.of(Duration.ofMillis(250));
		ProxyFactory factory = new ProxyFactory(new Store());
		factory.setProxyTargetClass(true);
		factory.addAdvice(new FencedMethodInterceptor(FenceAllowances.of(Map.of("store", allowance))));
		Store store = (Store) factory.getProxy();
		AtomicReference<@Nullable Lease> taken = new AtomicReference<>();
		BoundFence bound = this.template.call(LeaseRequest.of(fresh(), TERM), (lease) -> {
			taken.set(lease);
			return store.write();
		});
		assertThat(bound.fence()).isEqualTo(Fence.mint(taken.get(), allowance));
		assertThatIllegalStateException().isThrownBy(store::write).withMessageContaining("outside any lease");
	}

	@Test
	void callAsyncReleasesWhenTheStageCompletes() {
		String key = fresh();
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = this.template.callAsync(LeaseRequest.of(key, TERM), (lease) -> work);
		assertThat(LeaseStack.innermost()).isNull();
		assertThat(this.host.calls()).containsExactly("take " + key);
		assertThat(result).isNotDone();
		work.complete("later");
		assertThat(result.join()).isEqualTo("later");
		assertThat(this.host.calls()).containsExactly("take " + key, "release " + key);
	}

	@Test
	void callAsyncFailsAsTheStageFailsAndReleases() {
		String key = fresh();
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = this.template.callAsync(LeaseRequest.of(key, TERM), (lease) -> work);
		IllegalStateException failure = new IllegalStateException("failed later");
		work.completeExceptionally(failure);
		assertThat(result).isCompletedExceptionally();
		assertThat(result.handle((value, ex) -> ex).join()).isSameAs(failure);
		assertThat(this.host.calls()).endsWith("release " + key);
	}

	@Test
	@DisplayName("Non-goal 11: with FAIL, a stage that outran its term fails with LeaseExpiredException")
	void callAsyncOverrunWithFailFailsTheFuture() {
		try (LeaseTemplate failing = new LeaseTemplate(this.host, "test", OnOverrun.FAIL)) {
			CompletableFuture<String> result = failing.callAsync(LeaseRequest.of(fresh(), Duration.ofMillis(200)),
					(lease) -> CompletableFuture.supplyAsync(() -> outlive(lease)));
			assertThat(result.handle((value, ex) -> ex).join()).isInstanceOf(LeaseExpiredException.class);
		}
	}

	@Test
	void executeAsyncOnAHeldKeyAnswersWhyAndRunsNothing() {
		String key = fresh();
		hold(key, TERM);
		LeaseOutcome<CompletableFuture<String>> outcome = this.template.executeAsync(LeaseRequest.of(key, TERM),
				LeaseMode.TRY_TAKE, (lease) -> {
					throw new AssertionError("must not run");
				});
		assertThat(outcome.isTaken()).isFalse();
		assertThat(outcome.reason()).isEqualTo("it is held by another holder");
	}

	@Test
	@DisplayName("Operation 4: callAsync whose arrival term runs out behind an earlier waiter throws before any stage")
	void callAsyncUnavailableForTheArrivalTermThrows() throws Exception {
		String key = fresh();
		// Long enough for both waiters to arrive while it stands on a loaded machine.
		hold(key, Duration.ofSeconds(3));
		// An earlier waiter queues first and is handed the key when the grant passes.
		Thread earlier = new Thread(() -> {
			try {
				this.host.take(LeaseKey.of(key), LeaseHolder.of("earlier-" + fresh()), TERM);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		earlier.start();
		await("the earlier waiter queued").atMost(Duration.ofSeconds(10))
			.until(() -> this.host.waiting(LeaseKey.of(key)).orElseThrow().count() == 1);
		assertThatExceptionOfType(LeaseUnavailableException.class)
			.isThrownBy(() -> this.template.callAsync(LeaseRequest.of(key, TERM), (lease) -> {
				throw new AssertionError("must not run");
			}))
			.withMessageContaining("stayed held for the whole arrival term");
		earlier.join(5000);
	}

	@Test
	void takeAndReleaseByHandDoNotBindAndReleaseOnce() {
		String key = fresh();
		LeaseOutcome<HeldLease> outcome = this.template.take(LeaseRequest.of(key, TERM), LeaseMode.TRY_TAKE);
		HeldLease held = outcome.value();
		assertThat(held).isNotNull();
		assertThat(LeaseStack.innermost()).isNull();
		this.template.release(held);
		this.template.release(held);
		assertThat(this.host.calls()).containsExactly("tryTake " + key, "release " + key);
		assertThat(this.host.remaining(held.lease().key(), held.lease().holder())).isEmpty();
	}

	@Test
	void requestRefusesWhatCouldNotBeHonoured() {
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseRequest.of("k", Duration.ZERO))
			.withMessageContaining("no default term");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LeaseRequest.of("k", TERM).withHoldAtLeast(Duration.ofSeconds(-1)))
			.withMessageContaining("must not be negative");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LeaseRequest.of("k", TERM).withHoldAtLeast(TERM.plusMillis(1)))
			.withMessageContaining("never held past its instant");
		assertThat(LeaseRequest.of("k", TERM).withHoldAtLeast(TERM).holdAtLeast()).isEqualTo(TERM);
		assertThatIllegalArgumentException().isThrownBy(() -> new LeaseTemplate(this.host, " ", OnOverrun.WARN));
	}

	// Works until the grant has ended at its instant, as the host reads it.
	private String outlive(Lease lease) {
		await().atMost(Duration.ofSeconds(5)).until(() -> this.host.remaining(lease.key(), lease.holder()).isEmpty());
		this.host.calls().removeIf((call) -> call.startsWith("remaining"));
		return "done";
	}

	private void hold(String key, Duration duration) {
		assertThat(this.host.tryTake(LeaseKey.of(key), LeaseHolder.of("elsewhere-" + fresh()), duration))
			.isInstanceOf(Taken.class);
		this.host.calls().clear();
	}

	private static String fresh() {
		return UUID.randomUUID().toString();
	}

	@Fenced("store")
	static class Store {

		BoundFence write() {
			return FenceBinding.required("store");
		}

	}

}
