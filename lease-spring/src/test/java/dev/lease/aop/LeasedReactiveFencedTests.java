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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;

import dev.lease.Allowance;
import dev.lease.Fence;
import dev.lease.Lease;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.annotation.Fenced;
import dev.lease.annotation.Leased;
import dev.lease.fence.BoundFence;
import dev.lease.fence.FenceAllowances;
import dev.lease.fence.FenceBinding;
import dev.lease.fence.reactor.ReactorFences;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.template.OnOverrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@code @Fenced} calls inside the {@code Mono} or {@code Flux} of a
 * {@code @Leased} method: each mints its fence from the pipeline's grant, carried in the
 * subscriber context and bound on the thread that subscribes or requests.
 *
 * @author Lease contributors
 */
class LeasedReactiveFencedTests {

	private static final Allowance STORE_ALLOWANCE = Allowance.of(Duration.ofMillis(300));

	private final InMemoryLeaseHost host = new InMemoryLeaseHost();

	private final AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();

	@AfterEach
	void closeContext() {
		this.context.close();
	}

	@Test
	@DisplayName("Fence 5: a @Fenced Mono returned directly by a leased Mono method mints its fence from the grant")
	void fencedMonoReturnedDirectlyMintsFromTheGrant() {
		Work work = work();
		String key = key();
		Fence fence = work.returned(key).block(Duration.ofSeconds(10));
		assertThat(fence).isEqualTo(Fence.mint(work.granted(key), STORE_ALLOWANCE));
	}

	@Test
	@DisplayName("Fence 5: a @Fenced call in a leased Mono's map mints its fence from the grant")
	void fencedCallInMapMintsFromTheGrant() {
		Work work = work();
		String key = key();
		Fence fence = work.mapped(key).block(Duration.ofSeconds(10));
		assertThat(fence).isEqualTo(Fence.mint(work.granted(key), STORE_ALLOWANCE));
	}

	@Test
	@DisplayName("Fence 5: a @Fenced Mono in a leased Mono's flatMap, after a change of thread, mints its fence from the grant in the subscriber context")
	void fencedMonoInFlatMapAfterAChangeOfThreadMintsFromTheGrant() {
		Work work = work();
		String key = key();
		Fence fence = work.flatMapped(key).block(Duration.ofSeconds(10));
		assertThat(fence).isEqualTo(Fence.mint(work.granted(key), STORE_ALLOWANCE));
	}

	@Test
	@DisplayName("Fence 5: @Fenced calls in a leased Flux's map and flatMap mint each fence from the grant")
	void fencedCallsInAFluxMintFromTheGrant() {
		Work work = work();
		String key = key();
		List<Fence> mapped = work.fluxMapped(key).collectList().block(Duration.ofSeconds(10));
		Fence expected = Fence.mint(work.granted(key), STORE_ALLOWANCE);
		assertThat(mapped).containsExactly(expected, expected, expected);
		String other = key();
		List<Fence> flatMapped = work.fluxFlatMapped(other).collectList().block(Duration.ofSeconds(10));
		Fence expectedOther = Fence.mint(work.granted(other), STORE_ALLOWANCE);
		assertThat(flatMapped).containsExactly(expectedOther, expectedOther, expectedOther);
	}

	@Test
	@DisplayName("Fence 1: a @Fenced call in a leased Mono's map after a change of thread finds no grant bound, and the failure says to return a Mono")
	void fencedCallInMapAfterAChangeOfThreadFailsSayingWhatToDo() {
		Work work = work();
		assertThatIllegalStateException().isThrownBy(() -> work.mappedAfterDelay(key()).block(Duration.ofSeconds(10)))
			.withMessageContaining("outside any lease")
			.withMessageContaining("return a Mono or Flux from it");
	}

	@Test
	@DisplayName("Fence 5: with Reactor's automatic context propagation, a @Fenced call in a leased Mono's map after a change of thread mints its fence from the grant")
	void fencedCallInMapAfterAChangeOfThreadMintsFromTheGrantWithAutomaticPropagation() {
		Work work = work();
		String key = key();
		Hooks.enableAutomaticContextPropagation();
		try {
			Fence fence = work.mappedAfterDelay(key).block(Duration.ofSeconds(10));
			assertThat(fence).isEqualTo(Fence.mint(work.granted(key), STORE_ALLOWANCE));
		}
		finally {
			Hooks.disableAutomaticContextPropagation();
		}
	}

	@Test
	@DisplayName("Fence 1: a @Fenced Mono subscribed outside any leased pipeline fails when subscribed, and does not run")
	void fencedMonoOutsideAnyLeaseFailsWhenSubscribed() {
		work();
		Store store = this.context.getBean(Store.class);
		Mono<Fence> later = store.later();
		assertThatIllegalStateException().isThrownBy(() -> later.block(Duration.ofSeconds(10)))
			.withMessageContaining("outside any lease")
			.withMessageContaining("Call it from within a @Leased method");
		assertThat(store.runs()).isEmpty();
	}

	private static String key() {
		return "fenced-" + UUID.randomUUID();
	}

	private Work work() {
		this.context.registerBean(LeaseHost.class, () -> this.host);
		this.context.registerBean(DefaultAdvisorAutoProxyCreator.class, () -> {
			DefaultAdvisorAutoProxyCreator creator = new DefaultAdvisorAutoProxyCreator();
			creator.setProxyTargetClass(true);
			return creator;
		});
		this.context.registerBean(LeasedAdvisor.class,
				() -> new LeasedAdvisor(new LeasedMethodInterceptor(() -> this.context.getBean(LeaseHost.class),
						"test-app@host:1", OnOverrun.FAIL, this.context.getBeanFactory())));
		this.context.registerBean(FencedAdvisor.class,
				() -> new FencedAdvisor(FenceAllowances.of(Map.of("store", STORE_ALLOWANCE))));
		this.context.registerBean(Store.class);
		this.context.registerBean(Work.class, () -> new Work(this.host, this.context.getBean(Store.class)));
		this.context.refresh();
		return this.context.getBean(Work.class);
	}

	static class Store {

		private final List<Fence> runs = new CopyOnWriteArrayList<>();

		@Fenced("store")
		Fence now() {
			Fence fence = FenceBinding.required("store").fence();
			this.runs.add(fence);
			return fence;
		}

		@Fenced("store")
		Mono<Fence> later() {
			return Mono.deferContextual((context) -> {
				BoundFence bound = ReactorFences.find(context, "store");
				assertThat(bound).isNotNull();
				this.runs.add(bound.fence());
				return Mono.just(bound.fence());
			});
		}

		List<Fence> runs() {
			return this.runs;
		}

	}

	static class Work {

		private final LeaseHost host;

		private final Store store;

		private final Map<String, Lease> granted = new ConcurrentHashMap<>();

		Work(LeaseHost host, Store store) {
			this.host = host;
			this.store = store;
		}

		@Leased(key = "#key", duration = "30s")
		Mono<Fence> returned(String key) {
			record(key);
			return this.store.later();
		}

		@Leased(key = "#key", duration = "30s")
		Mono<Fence> mapped(String key) {
			return Mono.fromRunnable(() -> record(key)).then(Mono.just(1)).map((value) -> this.store.now());
		}

		@Leased(key = "#key", duration = "30s")
		Mono<Fence> flatMapped(String key) {
			return Mono.delay(Duration.ofMillis(5))
				.doOnNext((tick) -> record(key))
				.flatMap((tick) -> this.store.later());
		}

		@Leased(key = "#key", duration = "30s")
		Mono<Fence> mappedAfterDelay(String key) {
			return Mono.delay(Duration.ofMillis(5)).doOnNext((tick) -> record(key)).map((tick) -> this.store.now());
		}

		@Leased(key = "#key", duration = "30s")
		Flux<Fence> fluxMapped(String key) {
			return Flux.range(1, 3).doOnNext((value) -> record(key)).map((value) -> this.store.now());
		}

		@Leased(key = "#key", duration = "30s")
		Flux<Fence> fluxFlatMapped(String key) {
			return Flux.range(1, 3)
				.delayElements(Duration.ofMillis(2))
				.doOnNext((value) -> record(key))
				.flatMap((value) -> this.store.later());
		}

		private void record(String key) {
			this.granted.putIfAbsent(key, this.host.grant(LeaseKey.of(key)).orElseThrow());
		}

		Lease granted(String key) {
			Lease lease = this.granted.get(key);
			assertThat(lease).as("grant seen inside the pipeline of %s", key).isNotNull();
			return lease;
		}

	}

}
