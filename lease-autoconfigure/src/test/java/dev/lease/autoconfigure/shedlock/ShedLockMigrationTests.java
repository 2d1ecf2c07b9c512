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

package dev.lease.autoconfigure.shedlock;

import java.util.concurrent.atomic.AtomicInteger;

import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Scheduled;

import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the migration from ShedLock (docs/migrating-from-shedlock.md): a job kept
 * under {@code @SchedulerLock} with lease-shedlock, the same job ported to
 * {@code @Leased}, and both taking the same key, so that a fleet can move one instance at
 * a time.
 *
 * @author Lease contributors
 */
class ShedLockMigrationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(InMemoryLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class,
				ShedLockAutoConfiguration.class))
		.withUserConfiguration(SchedulerLockConfiguration.class);

	@Test
	void schedulerLockTakesLeaseOnItsNameHeldAtLeastForLockAtLeastFor() {
		this.runner.run((context) -> {
			ReportJobs jobs = context.getBean(ReportJobs.class);
			jobs.nightlyReport();
			assertThat(context.getBean(LeaseHost.class).grant(LeaseKey.of("nightly-report"))).isPresent();
			jobs.nightlyReport();
			assertThat(jobs.runs()).isEqualTo(1);
		});
	}

	@Test
	void leasedSkipsWhileSchedulerLockHoldsTheKey() {
		this.runner.run((context) -> {
			context.getBean(ReportJobs.class).nightlyReport();
			LeasedReportJobs leased = context.getBean(LeasedReportJobs.class);
			leased.nightlyReport();
			assertThat(leased.runs()).isZero();
		});
	}

	@Test
	void schedulerLockSkipsWhileLeasedHoldsTheKey() {
		this.runner.run((context) -> {
			LeasedReportJobs leased = context.getBean(LeasedReportJobs.class);
			leased.nightlyReport();
			assertThat(leased.runs()).isEqualTo(1);
			ReportJobs jobs = context.getBean(ReportJobs.class);
			jobs.nightlyReport();
			assertThat(jobs.runs()).isZero();
		});
	}

	// Before: ShedLock, with lease-shedlock on the class path in place of a ShedLock
	// provider. Scheduling itself is left out: the tests call the jobs.
	@Configuration(proxyBeanMethods = false)
	@EnableSchedulerLock(defaultLockAtMostFor = "10m")
	static class SchedulerLockConfiguration {

		@Bean
		ReportJobs reportJobs() {
			return new ReportJobs();
		}

		@Bean
		LeasedReportJobs leasedReportJobs() {
			return new LeasedReportJobs();
		}

	}

	public static class ReportJobs {

		private final AtomicInteger runs = new AtomicInteger();

		@Scheduled(cron = "0 0 2 * * *")
		@SchedulerLock(name = "nightly-report", lockAtMostFor = "10m", lockAtLeastFor = "1m")
		public void nightlyReport() {
			this.runs.incrementAndGet();
		}

		int runs() {
			return this.runs.get();
		}

	}

	// After: the same job under @Leased.
	public static class LeasedReportJobs {

		private final AtomicInteger runs = new AtomicInteger();

		@Scheduled(cron = "0 0 2 * * *")
		@Leased(key = "'nightly-report'", duration = "10m", holdAtLeast = "1m", mode = LeaseMode.TRY_TAKE,
				onUnavailable = OnUnavailable.SKIP)
		public void nightlyReport() {
			this.runs.incrementAndGet();
		}

		int runs() {
			return this.runs.get();
		}

	}

}
