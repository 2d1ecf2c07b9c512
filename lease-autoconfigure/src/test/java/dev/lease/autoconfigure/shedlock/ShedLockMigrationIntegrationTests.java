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

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import dev.lease.annotation.Leased;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.autoconfigure.jdbc.JdbcLeaseHostAutoConfiguration;
import dev.lease.host.jdbc.JdbcLeaseHost;
import dev.lease.shedlock.LeaseLockProvider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the migration from ShedLock (docs/migrating-from-shedlock.md) as a fleet runs
 * it: two application instances, each with its own connection pool and JDBC lease host
 * auto-configured from {@code spring.datasource.*}, on one PostgreSQL database (the one
 * named by {@code LEASE_TEST_POSTGRES_URL}, else an embedded one), their triggers 300 ms
 * apart. The job kept under {@code @SchedulerLock} with lease-shedlock, the job ported to
 * {@code @Leased} as the guide maps it, and one instance of each while the port rolls out
 * each run once per tick. The three run side by side, each on tables of its own: their
 * time is spent waiting for ticks.
 *
 * @author Lease contributors
 */
@Execution(ExecutionMode.CONCURRENT)
class ShedLockMigrationIntegrationTests {

	// Every third second of each instance's clock; the second instance's clock is
	// 300 ms behind, so its triggers fire 300 ms after the first's, as skewed clocks and
	// late schedulers make them.
	private static final String EVERY_THIRD_SECOND = "*/3 * * * * *";

	private static final long TICK_MILLIS = 3000;

	private static final Duration SKEW = Duration.ofMillis(300);

	// A tick's runs fall from its trigger (a scheduler may fire a millisecond early) to
	// a second run that waited out the 1 s hold; counting a tick from 500 ms before its
	// trigger leaves 2.5 s for a late scheduler before a run is counted in the next one.
	private static final long TICK_START_BEFORE_TRIGGER_MILLIS = 500;

	private static final int TICKS = 4;

	private static String url;

	private static @Nullable EmbeddedPostgres embedded;

	private final String tablePrefix = "SHED_" + UUID.randomUUID().toString().replace("-", "").toUpperCase(Locale.ROOT)
			+ "_";

	private final List<Run> runs = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void startServer() throws IOException {
		String named = System.getenv("LEASE_TEST_POSTGRES_URL");
		if (named != null && !named.isBlank()) {
			url = named.trim();
		}
		else {
			embedded = EmbeddedPostgres.start();
			url = embedded.getJdbcUrl("postgres", "postgres");
		}
	}

	@AfterAll
	static void stopServer() throws IOException {
		if (embedded != null) {
			embedded.close();
		}
	}

	@AfterEach
	void dropTables() {
		DataSource dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), url);
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("DROP TABLE IF EXISTS " + this.tablePrefix + "WAITERS");
		jdbc.execute("DROP TABLE IF EXISTS " + this.tablePrefix + "KEYS");
	}

	@Test
	@DisplayName("Operation 6, Invariant 1.2: a job ported to @Leased runs once per tick on two instances over one database")
	void leasedJobRunsOncePerTickOnTwoInstancesOverOneDatabase() {
		assertOncePerTick(ported("first", Clock.systemDefaultZone()), ported("second", behind()));
	}

	@Test
	@DisplayName("Operation 6, Invariant 1.2: a job kept under @SchedulerLock runs once per tick on two instances over one database")
	void schedulerLockJobRunsOncePerTickOnTwoInstancesOverOneDatabase() {
		assertOncePerTick(kept("first", Clock.systemDefaultZone()), kept("second", behind()));
	}

	@Test
	@DisplayName("Operation 6, Invariant 1.2: while the port rolls out, a @SchedulerLock and a @Leased instance run the job once per tick")
	void schedulerLockAndLeasedInstancesRunTheJobOncePerTick() {
		assertOncePerTick(kept("first", Clock.systemDefaultZone()), ported("second", behind()));
	}

	private void assertOncePerTick(ApplicationContextRunner first, ApplicationContextRunner second) {
		List<Integer> runsPerTick = new ArrayList<>();
		first.run((one) -> second.run((two) -> {
			assertThat(one).hasNotFailed()
				.hasSingleBean(HikariDataSource.class)
				.hasSingleBean(JdbcLeaseHost.class)
				.hasSingleBean(LeaseLockProvider.class);
			assertThat(two).hasNotFailed()
				.hasSingleBean(HikariDataSource.class)
				.hasSingleBean(JdbcLeaseHost.class)
				.hasSingleBean(LeaseLockProvider.class);
			assertThat(one.getBean(DataSource.class)).isNotSameAs(two.getBean(DataSource.class));
			// the first tick whose trigger comes after both instances are up
			long firstTick = tick(System.currentTimeMillis()) + 1;
			await().atMost(Duration.ofSeconds(30 + TICKS * TICK_MILLIS / 1000))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> this.runs.stream().anyMatch((run) -> tick(run.millis()) >= firstTick + TICKS));
			for (long tick = firstTick; tick < firstTick + TICKS; tick++) {
				long counted = tick;
				runsPerTick.add((int) this.runs.stream().filter((run) -> tick(run.millis()) == counted).count());
			}
		}));
		assertThat(runsPerTick).as("runs in each of %d ticks, of %s", TICKS, this.runs)
			.containsExactlyElementsOf(Collections.nCopies(TICKS, 1));
	}

	// Step 1 of the guide: the job as it was, lease-shedlock's LeaseLockProvider in place
	// of a ShedLock provider.
	private ApplicationContextRunner kept(String name, Clock clock) {
		return instance(name, clock).withUserConfiguration(SchedulerLockConfiguration.class)
			.withBean(ReportJob.class, () -> new ReportJob(name, this.runs));
	}

	// Step 2 of the guide: the job ported to @Leased, @EnableSchedulerLock gone.
	private ApplicationContextRunner ported(String name, Clock clock) {
		return instance(name, clock).withBean(LeasedReportJob.class, () -> new LeasedReportJob(name, this.runs));
	}

	private ApplicationContextRunner instance(String name, Clock clock) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					JdbcLeaseHostAutoConfiguration.class, InMemoryLeaseHostAutoConfiguration.class,
					LeaseAutoConfiguration.class, ShedLockAutoConfiguration.class))
			.withUserConfiguration(SchedulingConfiguration.class)
			// Each instance builds its own pool and host from these, as an application
			// deployed twice does; only the database and the host's tables are shared.
			.withPropertyValues("spring.application.name=" + name, "spring.datasource.url=" + url,
					"spring.datasource.hikari.pool-name=" + name, "spring.datasource.hikari.maximum-pool-size=4",
					"lease.jdbc.initialize-schema=always", "lease.jdbc.table-prefix=" + this.tablePrefix)
			.withBean("taskScheduler", ThreadPoolTaskScheduler.class, () -> scheduler(name, clock));
	}

	private static Clock behind() {
		return Clock.offset(Clock.systemDefaultZone(), SKEW.negated());
	}

	private static ThreadPoolTaskScheduler scheduler(String name, Clock clock) {
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setClock(clock);
		scheduler.setThreadNamePrefix(name + "-scheduling-");
		return scheduler;
	}

	private static long tick(long millis) {
		return Math.floorDiv(millis + TICK_START_BEFORE_TRIGGER_MILLIS, TICK_MILLIS);
	}

	record Run(String instance, long millis) {

		@Override
		public String toString() {
			return this.instance + "@" + this.millis % 100_000;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class SchedulingConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableSchedulerLock(defaultLockAtMostFor = "10m")
	static class SchedulerLockConfiguration {

	}

	// lockAtLeastFor is 1 s, not the guide's 1m, to fit a 3 s tick, and longer than the
	// skew, so that the second instance finds the key held.
	public static class ReportJob {

		private final String instance;

		private final List<Run> runs;

		ReportJob(String instance, List<Run> runs) {
			this.instance = instance;
			this.runs = runs;
		}

		@Scheduled(cron = EVERY_THIRD_SECOND)
		@SchedulerLock(name = "nightly-report", lockAtMostFor = "10m", lockAtLeastFor = "1s")
		public void nightlyReport() {
			this.runs.add(new Run(this.instance, System.currentTimeMillis()));
		}

	}

	// The same job ported as the guide maps it, with no mode; holdAtLeast as
	// lockAtLeastFor above.
	public static class LeasedReportJob {

		private final String instance;

		private final List<Run> runs;

		LeasedReportJob(String instance, List<Run> runs) {
			this.instance = instance;
			this.runs = runs;
		}

		@Scheduled(cron = EVERY_THIRD_SECOND)
		@Leased(key = "'nightly-report'", duration = "10m", holdAtLeast = "1s")
		public void nightlyReport() {
			this.runs.add(new Run(this.instance, System.currentTimeMillis()));
		}

	}

}
