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

package dev.lease.autoconfigure.leased;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.integration.Slf4jThreadLocalAccessor;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskDecorator;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.annotation.Leased;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the context a {@link Leased @Leased} body sees when its take had to wait: the
 * caller's, as it would without the lease.
 *
 * @author Lease contributors
 */
class LeasedContextPropagationTests {

	// The MDC through context-propagation's accessor: SLF4J's API is not used here
	private static final Slf4jThreadLocalAccessor MDC = new Slf4jThreadLocalAccessor();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, LeaseAutoConfiguration.class,
				InMemoryLeaseHostAutoConfiguration.class))
		.withUserConfiguration(ContextualConfiguration.class);

	@BeforeAll
	static void registerRequestKey() {
		// What an application does to carry an MDC key across threads with
		// context-propagation (Reactor's automatic propagation reads the same registry)
		ContextRegistry.getInstance().registerThreadLocalAccessor(new Slf4jThreadLocalAccessor("request"));
	}

	@AfterAll
	static void removeRequestKey() {
		ContextRegistry.getInstance().removeThreadLocalAccessor(Slf4jThreadLocalAccessor.KEY);
	}

	@Test
	@DisplayName("Operation 1: a CompletionStage body that waited runs where the TaskDecorator reaches, with the caller's MDC and Observation")
	void completionStageBodyThatWaitedSeesTheCallersContext() {
		this.runner.run((context) -> {
			ContextualWork work = context.getBean(ContextualWork.class);
			String key = fresh();
			Seen seen = waited(context.getBean(LeaseHost.class), key, context.getBean(ObservationRegistry.class),
					() -> work.stage(key));
			assertThat(seen.thread()).isNotEqualTo(Thread.currentThread().getName());
			assertThat(seen.decorated()).as("the TaskDecorator's MDC value").isEqualTo("applied");
			assertThat(seen.request()).as("the caller's MDC value").isEqualTo("42");
			assertThat(seen.observation()).as("the current Observation").isEqualTo("caller");
		});
	}

	@Test
	@DisplayName("Operation 1: a Mono body that waited sees the caller's MDC, Observation and Reactor context")
	void monoBodyThatWaitedSeesTheCallersContext() {
		this.runner.run((context) -> {
			ContextualWork work = context.getBean(ContextualWork.class);
			String key = fresh();
			Seen seen = waited(context.getBean(LeaseHost.class), key, context.getBean(ObservationRegistry.class),
					() -> work.mono(key).contextWrite(Context.of("tenant", "t1")).toFuture());
			assertThat(seen.request()).as("the caller's MDC value").isEqualTo("42");
			assertThat(seen.observation()).as("the current Observation").isEqualTo("caller");
			assertThat(seen.tenant()).as("the subscriber's Reactor context").isEqualTo("t1");
		});
	}

	// Another holder has the key when the caller calls; the call returns at once and its
	// body runs only once that holder releases, on a thread other than the caller's.
	private static Seen waited(LeaseHost host, String key, ObservationRegistry registry,
			CallerAction<CompletableFuture<Seen>> call) throws Exception {
		LeaseKey leaseKey = LeaseKey.of(key);
		LeaseHolder other = LeaseHolder.of("other-" + UUID.randomUUID());
		assertThat(host.tryTake(leaseKey, other, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
		CompletableFuture<Seen> result;
		Map<String, String> before = mdc();
		MDC.setValue(Map.of("request", "42"));
		Observation observation = Observation.start("caller", registry);
		try (Observation.Scope scope = observation.openScope()) {
			result = call.call();
		}
		finally {
			observation.stop();
			MDC.setValue(before);
		}
		assertThat(result).isNotDone();
		host.release(leaseKey, other);
		return result.get(30, TimeUnit.SECONDS);
	}

	private static Map<String, String> mdc() {
		Map<String, String> values = MDC.getValue();
		return (values != null) ? values : Map.of();
	}

	private static String fresh() {
		return "context-" + UUID.randomUUID();
	}

	interface CallerAction<T> {

		T call() throws Exception;

	}

	record Seen(String thread, @Nullable String request, @Nullable String decorated, @Nullable String observation,
			@Nullable String tenant) {

		static Seen now(ObservationRegistry registry, @Nullable String tenant) {
			Map<String, String> mdc = mdc();
			Observation current = registry.getCurrentObservation();
			return new Seen(Thread.currentThread().getName(), mdc.get("request"), mdc.get("decorated"),
					(current != null) ? current.getContext().getName() : null, tenant);
		}

	}

	public static class ContextualWork {

		private final ObservationRegistry registry;

		ContextualWork(ObservationRegistry registry) {
			this.registry = registry;
		}

		@Leased(key = "#key", duration = "30s")
		public CompletableFuture<Seen> stage(String key) {
			return CompletableFuture.completedFuture(Seen.now(this.registry, null));
		}

		@Leased(key = "#key", duration = "30s")
		public Mono<Seen> mono(String key) {
			return Mono
				.deferContextual((context) -> Mono.just(Seen.now(this.registry, context.getOrDefault("tenant", null))));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ContextualConfiguration {

		@Bean
		ObservationRegistry observationRegistry() {
			ObservationRegistry registry = ObservationRegistry.create();
			registry.observationConfig().observationHandler((context) -> true);
			return registry;
		}

		// An application's usual MDC-copying decorator, which also marks the work it ran
		@Bean
		TaskDecorator mdcTaskDecorator() {
			return (task) -> {
				Map<String, String> submitted = mdc();
				return () -> {
					Map<String, String> previous = mdc();
					Map<String, String> decorated = new HashMap<>(submitted);
					decorated.put("decorated", "applied");
					MDC.setValue(decorated);
					try {
						task.run();
					}
					finally {
						MDC.setValue(previous);
					}
				};
			};
		}

		@Bean
		ContextualWork contextualWork(ObservationRegistry registry) {
			return new ContextualWork(registry);
		}

	}

}
