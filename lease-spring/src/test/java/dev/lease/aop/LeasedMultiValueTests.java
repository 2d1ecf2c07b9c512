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
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import reactor.adapter.JdkFlowAdapter;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.Taken;
import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.template.OnOverrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@code @Leased} methods whose result yields many values after the method
 * returned: a {@code Publisher} or {@code Flux} is leased for its whole subscription, a
 * {@code Stream} is refused when the bean is proxied.
 *
 * @author Lease contributors
 */
class LeasedMultiValueTests {

	private final InMemoryLeaseHost host = new InMemoryLeaseHost();

	private final AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();

	@AfterEach
	void closeContext() {
		this.context.close();
	}

	@Test
	@DisplayName("Invariant 1: a leased Publisher delivers every element, each while the grant stands, and is released before its completion is heard")
	void publisherIsLeasedForItsWholeSubscription() {
		Work work = work();
		String key = "p-" + UUID.randomUUID();
		List<Boolean> standingAtEnd = new CopyOnWriteArrayList<>();
		List<Integer> values = Flux.from(work.publisher(key))
			.doOnComplete(() -> standingAtEnd.add(standing(key)))
			.collectList()
			.block(Duration.ofSeconds(10));
		assertThat(values).containsExactly(1, 2, 3);
		assertThat(work.standing()).as("grant standing when each element was made").containsExactly(true, true, true);
		assertThat(standingAtEnd).as("grant standing when the completion was heard").containsExactly(false);
	}

	@Test
	@DisplayName("Invariant 1: a leased Flux whose elements come on another thread delivers every element while the grant stands")
	void fluxOnAnotherThreadIsLeasedForItsWholeSubscription() {
		Work work = work();
		String key = "f-" + UUID.randomUUID();
		List<Integer> values = work.flux(key).collectList().block(Duration.ofSeconds(10));
		assertThat(values).containsExactly(1, 2, 3);
		assertThat(work.standing()).containsExactly(true, true, true);
		assertThat(standing(key)).isFalse();
	}

	@Test
	@DisplayName("Operation 11: cancelling a leased Publisher after its first element releases the key")
	void cancellingAPublisherReleasesTheKey() {
		Work work = work();
		String key = "c-" + UUID.randomUUID();
		List<Long> values = Flux.from(work.endless(key)).take(2).collectList().block(Duration.ofSeconds(10));
		assertThat(values).containsExactly(0L, 1L);
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !standing(key));
	}

	@Test
	@DisplayName("Operation 11: a leased Publisher that fails after its elements releases the key before the failure is heard")
	void failingPublisherReleasesBeforeTheFailureIsHeard() {
		Work work = work();
		String key = "e-" + UUID.randomUUID();
		List<Integer> values = new CopyOnWriteArrayList<>();
		List<Boolean> standingAtFailure = new CopyOnWriteArrayList<>();
		Flux.from(work.failing(key)).doOnNext(values::add).onErrorResume(IllegalStateException.class, (ex) -> {
			standingAtFailure.add(standing(key));
			return Flux.empty();
		}).blockLast(Duration.ofSeconds(10));
		assertThat(values).containsExactly(1, 2);
		assertThat(standingAtFailure).containsExactly(false);
	}

	@Test
	@DisplayName("Invariant 1: a leased JDK Flow.Publisher, adapted by Spring's registry, delivers every element while the grant stands")
	void jdkFlowPublisherIsLeasedForItsWholeSubscription() {
		Work work = work();
		String key = "j-" + UUID.randomUUID();
		List<Integer> values = JdkFlowAdapter.flowPublisherToFlux(work.jdk(key))
			.collectList()
			.block(Duration.ofSeconds(10));
		assertThat(values).containsExactly(1, 2, 3);
		assertThat(work.standing()).containsExactly(true, true, true);
		assertThat(standing(key)).isFalse();
	}

	@Test
	@DisplayName("Operation 7: a leased Publisher skipped on a held key completes empty, and its method does not run")
	void skippedPublisherCompletesEmpty() {
		Work work = work();
		String key = "s-" + UUID.randomUUID();
		assertThat(this.host.tryTake(LeaseKey.of(key), LeaseHolder.of("other"), Duration.ofSeconds(30)))
			.isInstanceOf(Taken.class);
		List<Integer> values = Flux.from(work.skipping(key)).collectList().block(Duration.ofSeconds(10));
		assertThat(values).isEmpty();
		assertThat(work.standing()).isEmpty();
	}

	@Test
	@DisplayName("Non-goal 1: a leased Flux nested, after a change of thread, on the key its pipeline holds is refused")
	void nestedCallOnTheKeyThePipelineHoldsIsRefused() {
		Work work = work();
		work.self(work);
		String key = "n-" + UUID.randomUUID();
		assertThatExceptionOfType(ReentrantTakeException.class)
			.isThrownBy(() -> work.nested(key).blockLast(Duration.ofSeconds(10)));
		assertThat(standing(key)).isFalse();
	}

	@Test
	@DisplayName("A leased Stream is refused when the bean is proxied: it is consumed after the key was released")
	void streamIsRefusedWhenTheBeanIsProxied() {
		register();
		this.context.registerBean(Streams.class);
		assertThatExceptionOfType(BeanCreationException.class).isThrownBy(this.context::refresh)
			.havingRootCause()
			.isInstanceOf(IllegalStateException.class)
			.withMessageContaining(Streams.class.getName() + ".numbers()")
			.withMessageContaining("java.util.stream.Stream")
			.withMessageContaining("Flux");
	}

	private boolean standing(String key) {
		return this.host.grant(LeaseKey.of(key)).isPresent();
	}

	private Work work() {
		register();
		this.context.registerBean(Work.class, () -> new Work(this.host));
		this.context.refresh();
		return this.context.getBean(Work.class);
	}

	private void register() {
		this.context.registerBean(LeaseHost.class, () -> this.host);
		this.context.registerBean(DefaultAdvisorAutoProxyCreator.class, () -> {
			DefaultAdvisorAutoProxyCreator creator = new DefaultAdvisorAutoProxyCreator();
			creator.setProxyTargetClass(true);
			return creator;
		});
		this.context.registerBean(LeasedAdvisor.class,
				() -> new LeasedAdvisor(new LeasedMethodInterceptor(() -> this.context.getBean(LeaseHost.class),
						"test-app@host:1", OnOverrun.FAIL, this.context.getBeanFactory())));
	}

	static class Work {

		private final LeaseHost host;

		private final List<Boolean> standing = new CopyOnWriteArrayList<>();

		private volatile @Nullable Work self;

		Work(LeaseHost host) {
			this.host = host;
		}

		@Leased(key = "#key", duration = "30s")
		Publisher<Integer> publisher(String key) {
			return Flux.range(1, 3).doOnNext((value) -> record(key));
		}

		@Leased(key = "#key", duration = "30s")
		Flux<Integer> flux(String key) {
			return Flux.range(1, 3).publishOn(Schedulers.parallel()).doOnNext((value) -> record(key));
		}

		@Leased(key = "#key", duration = "30s")
		Publisher<Long> endless(String key) {
			return Flux.interval(Duration.ofMillis(5)).doOnNext((value) -> record(key));
		}

		@Leased(key = "#key", duration = "30s")
		Flow.Publisher<Integer> jdk(String key) {
			return JdkFlowAdapter.publisherToFlowPublisher(Flux.range(1, 3).doOnNext((value) -> record(key)));
		}

		@Leased(key = "#key", duration = "30s", mode = LeaseMode.TRY_TAKE, onUnavailable = OnUnavailable.SKIP)
		Publisher<Integer> skipping(String key) {
			return Flux.range(1, 3).doOnNext((value) -> record(key));
		}

		@Leased(key = "#key", duration = "30s")
		Flux<Integer> nested(String key) {
			Work self = this.self;
			assertThat(self).isNotNull();
			return Flux.range(1, 2).delayElements(Duration.ofMillis(2)).concatMap((value) -> self.flux(key));
		}

		void self(Work self) {
			this.self = self;
		}

		@Leased(key = "#key", duration = "30s")
		Publisher<Integer> failing(String key) {
			return Flux.just(1, 2).concatWith(Flux.error(new IllegalStateException("failed on purpose")));
		}

		private void record(String key) {
			this.standing.add(this.host.grant(LeaseKey.of(key)).isPresent());
		}

		List<Boolean> standing() {
			return this.standing;
		}

	}

	static class Streams {

		@Leased(key = "'numbers'", duration = "30s")
		Stream<Integer> numbers() {
			return Stream.of(1, 2, 3);
		}

	}

}
