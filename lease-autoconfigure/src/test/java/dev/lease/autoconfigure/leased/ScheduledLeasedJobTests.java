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

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code @Scheduled} job ported from ShedLock ({@code lockAtMostFor} as the duration,
 * {@code lockAtLeastFor} as {@code holdAtLeast}, no mode) on two instances sharing one
 * host, their triggers 300 ms apart: one instance runs each tick, the other skips instead
 * of waiting out the hold.
 *
 * @author Lease contributors
 */
class ScheduledLeasedJobTests {

	// Every third second of each instance's clock; the second instance's clock is
	// 300 ms behind, so its triggers fire 300 ms after the first's, as skewed clocks and
	// late schedulers make them.
	private static final String EVERY_THIRD_SECOND = "*/3 * * * * *";

	private static final Duration SKEW = Duration.ofMillis(300);

	// The hold is 1 s: a second run in the same tick comes ~1 s after the first (when the
	// second instance waited out the hold), the next tick's run ~3 s after it. Half-way
	// leaves 1 s for scheduling delay either way.
	private static final long SAME_TICK_MILLIS = 2000;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LeaseAutoConfiguration.class))
		.withUserConfiguration(SchedulingConfiguration.class);

	@Test
	@DisplayName("A @Scheduled @Leased job with holdAtLeast and no mode runs once per tick across instances")
	void scheduledJobWithoutModeRunsOncePerTick() {
		InMemoryLeaseHost host = new InMemoryLeaseHost();
		List<Run> runs = new CopyOnWriteArrayList<>();
		ApplicationContextRunner first = instance("first", host, runs, Clock.systemDefaultZone());
		ApplicationContextRunner second = instance("second", host, runs,
				Clock.offset(Clock.systemDefaultZone(), SKEW.negated()));
		first.run((one) -> second.run((two) -> {
			assertThat(one).hasNotFailed();
			assertThat(two).hasNotFailed();
			// three runs span at least two ticks, whatever the machine's delays
			await().atMost(Duration.ofSeconds(60)).until(() -> runs.size() >= 3);
		}));
		List<Long> gaps = new ArrayList<>();
		for (int i = 1; i < runs.size(); i++) {
			gaps.add(Duration.ofNanos(runs.get(i).nanos() - runs.get(i - 1).nanos()).toMillis());
		}
		assertThat(gaps).as("milliseconds between runs %s", runs)
			.allSatisfy((gap) -> assertThat(gap).as("a second run in the same tick")
				.isGreaterThanOrEqualTo(SAME_TICK_MILLIS));
	}

	private ApplicationContextRunner instance(String name, InMemoryLeaseHost host, List<Run> runs, Clock clock) {
		return this.runner.withBean(InMemoryLeaseHost.class, () -> host)
			.withBean("taskScheduler", ThreadPoolTaskScheduler.class, () -> scheduler(clock))
			.withBean(ReportJob.class, () -> new ReportJob(name, runs));
	}

	private static ThreadPoolTaskScheduler scheduler(Clock clock) {
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setClock(clock);
		return scheduler;
	}

	record Run(String instance, long nanos) {

		@Override
		public String toString() {
			return this.instance + "@" + Duration.ofNanos(this.nanos).toMillis() % 100_000;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class SchedulingConfiguration {

	}

	static class ReportJob {

		private final String instance;

		private final List<Run> runs;

		ReportJob(String instance, List<Run> runs) {
			this.instance = instance;
			this.runs = runs;
		}

		@Scheduled(cron = EVERY_THIRD_SECOND)
		@dev.lease.annotation.Leased(key = "'report'", duration = "PT10M", holdAtLeast = "1s")
		void report() {
			this.runs.add(new Run(this.instance, System.nanoTime()));
		}

	}

}
