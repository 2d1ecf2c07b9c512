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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import reactor.core.publisher.Mono;

import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.template.OnOverrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link Leased#holdAtLeast()} on a scheduled job: two nodes, each with its own
 * application context and scheduler, share one host; node b's trigger fires 1 s after
 * node a's, every tick, and the job takes 50 ms.
 * <p>
 * The margins are wide enough for a busy machine, whose scheduler may fire a task a
 * second late: with a hold of 3 s, a tick stays single as long as the two firings of a
 * tick are less than 3 s apart (nominally 1 s: 2 s of slack) and the hold ends before the
 * next tick's later firing (nominally 3 s of slack). Without a hold, the 50 ms job has
 * released 950 ms before the other node fires.
 *
 * @author Lease contributors
 */
class LeasedHoldAtLeastTests {

	private static final Duration PERIOD = Duration.ofSeconds(5);

	private static final Duration OFFSET = Duration.ofSeconds(1);

	private static final int TICKS = 3;

	private final LeaseHost host = new InMemoryLeaseHost();

	@Test
	@DisplayName("A 50 ms job with holdAtLeast, triggered 1 s apart on two nodes, runs once per tick")
	void shortScheduledJobWithHoldAtLeastRunsOncePerTick() throws Exception {
		Map<Integer, List<String>> runs = runTicks(true);
		for (int tick = 0; tick < TICKS; tick++) {
			assertThat(runs.getOrDefault(tick, List.of())).as("nodes that ran tick %d of %s", tick, runs).hasSize(1);
		}
	}

	@Test
	@DisplayName("Without holdAtLeast the same job runs on both nodes every tick: the first released before the second asked")
	void shortScheduledJobWithoutHoldAtLeastRunsOnBothNodes() throws Exception {
		Map<Integer, List<String>> runs = runTicks(false);
		for (int tick = 0; tick < TICKS; tick++) {
			assertThat(runs.getOrDefault(tick, List.of())).as("nodes that ran tick %d of %s", tick, runs)
				.containsExactlyInAnyOrder("a", "b");
		}
	}

	@Test
	void holdAtLeastLongerThanTheDurationFailsAtStartUpNamingTheMethod() {
		assertThatExceptionOfType(BeanCreationException.class).isThrownBy(() -> context(LongHold.class))
			.withStackTraceContaining("LongHold.run()")
			.withStackTraceContaining("invalid holdAtLeast '6s'")
			.withStackTraceContaining("longer than the duration PT5S");
	}

	@Test
	void negativeHoldAtLeastFailsAtStartUpNamingTheMethod() {
		assertThatExceptionOfType(BeanCreationException.class).isThrownBy(() -> context(NegativeHold.class))
			.withStackTraceContaining("NegativeHold.run()")
			.withStackTraceContaining("invalid holdAtLeast '${job.negative-hold}' (resolved to 'PT-1S')")
			.withStackTraceContaining("must not be negative");
	}

	@Test
	@DisplayName("A holdAtLeast placeholder is resolved: the grant stands after the method returned")
	void holdAtLeastPlaceholderIsResolved() {
		AnnotationConfigApplicationContext context = context(PlaceholderHold.class);
		try {
			String key = UUID.randomUUID().toString();
			context.getBean(PlaceholderHold.class).run(key);
			assertThat(this.host.tryTake(LeaseKey.of(key), LeaseHolder.of("elsewhere"), Duration.ofSeconds(1)))
				.isInstanceOf(Held.class);
		}
		finally {
			context.close();
		}
	}

	@Test
	@DisplayName("A Mono's grant is held at least too: it stands after the Mono completed, and is released later")
	void monoIsReleasedWhenItsGrantIsOldEnough() {
		AnnotationConfigApplicationContext context = context(PlaceholderHold.class);
		try {
			String key = UUID.randomUUID().toString();
			assertThat(context.getBean(PlaceholderHold.class).mono(key).block(Duration.ofSeconds(5))).isEqualTo("ran");
			assertThat(this.host.tryTake(LeaseKey.of(key), LeaseHolder.of("elsewhere"), Duration.ofSeconds(1)))
				.isInstanceOf(Held.class);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.host.tryTake(LeaseKey.of(key), LeaseHolder.of("later"), Duration.ofSeconds(1))
					.getClass() == Taken.class);
		}
		finally {
			context.close();
		}
	}

	private AnnotationConfigApplicationContext context(Class<?> bean) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("test", Map.of("job.hold", "5s", "job.negative-hold", "PT-1S")));
		context.registerBean(DefaultAdvisorAutoProxyCreator.class, () -> {
			DefaultAdvisorAutoProxyCreator creator = new DefaultAdvisorAutoProxyCreator();
			creator.setProxyTargetClass(true);
			return creator;
		});
		context.registerBean(LeasedAdvisor.class, () -> new LeasedAdvisor(
				new LeasedMethodInterceptor(() -> this.host, "test", OnOverrun.WARN, context.getBeanFactory())));
		context.registerBean(bean);
		context.refresh();
		return context;
	}

	private Map<Integer, List<String>> runTicks(boolean hold) throws Exception {
		Map<Integer, List<String>> runs = new ConcurrentHashMap<>();
		String key = UUID.randomUUID().toString();
		List<AnnotationConfigApplicationContext> nodes = new ArrayList<>();
		List<ThreadPoolTaskScheduler> schedulers = new ArrayList<>();
		try {
			List<String> names = List.of("a", "b");
			for (String node : names) {
				nodes.add(node(node, runs));
				ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
				scheduler.setThreadNamePrefix("node-" + node + "-");
				scheduler.initialize();
				schedulers.add(scheduler);
			}
			// Scheduled once both nodes have started, so that starting them, however
			// slow,
			// never moves one node's firings closer to the other's than the offset.
			List<ScheduledFuture<?>> firings = new ArrayList<>();
			Instant start = Instant.now().plusMillis(500);
			for (int i = 0; i < names.size(); i++) {
				Report report = nodes.get(i).getBean(Report.class);
				ThreadPoolTaskScheduler scheduler = schedulers.get(i);
				Duration offset = (i == 0) ? Duration.ZERO : OFFSET;
				for (int tick = 0; tick < TICKS; tick++) {
					int firing = tick;
					Instant at = start.plus(PERIOD.multipliedBy(tick)).plus(offset);
					firings.add(scheduler.schedule(() -> {
						if (hold) {
							report.held(key, firing);
						}
						else {
							report.released(key, firing);
						}
					}, at));
				}
			}
			for (ScheduledFuture<?> firing : firings) {
				firing.get(30, TimeUnit.SECONDS);
			}
			return runs;
		}
		finally {
			schedulers.forEach(ThreadPoolTaskScheduler::shutdown);
			nodes.forEach(AnnotationConfigApplicationContext::close);
		}
	}

	private AnnotationConfigApplicationContext node(String name, Map<Integer, List<String>> runs) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		context.registerBean(LeaseHost.class, () -> this.host);
		context.registerBean(DefaultAdvisorAutoProxyCreator.class, () -> {
			DefaultAdvisorAutoProxyCreator creator = new DefaultAdvisorAutoProxyCreator();
			creator.setProxyTargetClass(true);
			return creator;
		});
		context.registerBean(LeasedAdvisor.class,
				() -> new LeasedAdvisor(new LeasedMethodInterceptor(() -> context.getBean(LeaseHost.class),
						"node-" + name, OnOverrun.WARN, context.getBeanFactory())));
		context.registerBean(Report.class, () -> new Report(name, runs));
		context.refresh();
		return context;
	}

	static class LongHold {

		@Leased(key = "'k'", duration = "5s", holdAtLeast = "6s")
		void run() {
		}

	}

	static class NegativeHold {

		@Leased(key = "'k'", duration = "5s", holdAtLeast = "${job.negative-hold}")
		void run() {
		}

	}

	static class PlaceholderHold {

		@Leased(key = "#key", duration = "30s", holdAtLeast = "${job.hold}")
		void run(String key) {
		}

		@Leased(key = "#key", duration = "30s", holdAtLeast = "1s")
		Mono<String> mono(String key) {
			return Mono.just("ran");
		}

	}

	static class Report {

		private final String node;

		private final Map<Integer, List<String>> runs;

		Report(String node, Map<Integer, List<String>> runs) {
			this.node = node;
			this.runs = runs;
		}

		@Leased(key = "#key", duration = "5s", mode = LeaseMode.TRY_TAKE, onUnavailable = OnUnavailable.SKIP,
				holdAtLeast = "3s")
		void held(String key, int tick) {
			run(tick);
		}

		@Leased(key = "#key", duration = "5s", mode = LeaseMode.TRY_TAKE, onUnavailable = OnUnavailable.SKIP)
		void released(String key, int tick) {
			run(tick);
		}

		private void run(int tick) {
			this.runs.computeIfAbsent(tick, (ignored) -> new CopyOnWriteArrayList<>()).add(this.node);
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
