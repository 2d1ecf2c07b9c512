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

package dev.lease.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import dev.lease.Lease;
import dev.lease.LeaseKey;
import dev.lease.annotation.Leased;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.template.LeaseStack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link HeldReleasesLifecycle} as {@link LeaseAutoConfiguration} wires it: an
 * instance of a {@code @Scheduled} job with {@code holdAtLeast} stopped within the hold,
 * and a new instance started on the same host, as a restart does. The host is supplied
 * from outside the contexts, so that it outlives them.
 *
 * @author Lease contributors
 */
@ExtendWith(OutputCaptureExtension.class)
class HeldReleasesLifecycleTests {

	private static final Duration HOLD = Duration.ofSeconds(2);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LeaseAutoConfiguration.class))
		.withUserConfiguration(SchedulingConfiguration.class);

	private final InMemoryLeaseHost host = new InMemoryLeaseHost();

	private final List<Run> runs = new CopyOnWriteArrayList<>();

	@Test
	@DisplayName("Invariant 2.1: a restart within holdAtLeast runs the job at the first tick after the hold, not after the duration")
	void restartWithinTheHoldRunsTheJobAtTheFirstTickAfterTheHold() {
		instance("first").run((context) -> {
			assertThat(context).hasNotFailed();
			await().atMost(Duration.ofSeconds(10)).until(() -> !this.runs.isEmpty());
			// Closed within the hold: the grant still stands for the first instance.
			assertThat(this.host.grant(LeaseKey.of("report"))).isPresent();
		});
		Run first = this.runs.get(0);
		Instant holdEnd = first.lease().expiresAt().minus(Job.DURATION).plus(HOLD);
		instance("second").run((context) -> {
			assertThat(context).hasNotFailed();
			await().atMost(Duration.ofSeconds(10)).until(() -> this.runs.stream().anyMatch(Run::second));
		});
		Run second = this.runs.stream().filter(Run::second).findFirst().orElseThrow();
		assertThat(second.at()).as("the restarted instance's first run").isAfterOrEqualTo(holdEnd);
	}

	@Test
	@DisplayName("Invariant 2.2: a stop whose timeout ends before the hold leaves the grant to its instant, and says so")
	void stopWithATimeoutShorterThanTheHoldLeavesTheGrantToItsInstant(CapturedOutput output) {
		AtomicLong closing = new AtomicLong();
		instance("first").withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=100ms").run((context) -> {
			await().atMost(Duration.ofSeconds(10)).until(() -> !this.runs.isEmpty());
			closing.set(System.nanoTime());
		});
		assertThat(Duration.ofNanos(System.nanoTime() - closing.get())).as("time the stop took").isLessThan(HOLD);
		assertThat(this.host.grant(LeaseKey.of("report"))).isPresent();
		assertThat(output).contains("The lease on key 'report' held at least PT2S was not released on close within")
			.contains("it ends at its instant");
	}

	private ApplicationContextRunner instance(String name) {
		return this.runner.withBean(InMemoryLeaseHost.class, () -> this.host)
			.withBean("taskScheduler", ThreadPoolTaskScheduler.class, ThreadPoolTaskScheduler::new)
			.withBean(Job.class, () -> new Job(name, this.runs));
	}

	record Run(String instance, Instant at, Lease lease) {

		boolean second() {
			return "second".equals(this.instance);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class SchedulingConfiguration {

	}

	static class Job {

		static final Duration DURATION = Duration.ofMinutes(10);

		private final String instance;

		private final List<Run> runs;

		Job(String instance, List<Run> runs) {
			this.instance = instance;
			this.runs = runs;
		}

		@Scheduled(fixedDelay = 200)
		@Leased(key = "'report'", duration = "PT10M", holdAtLeast = "2s")
		void report() {
			this.runs.add(new Run(this.instance, Instant.now(), Objects.requireNonNull(LeaseStack.innermost())));
		}

	}

}
