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

package dev.lease.autoconfigure.test;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lease.LeaseHost;
import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link AutoConfigureLeaseTesting}: an application's leased code on the
 * in-memory host, on a clock the test advances.
 *
 * @author Lease contributors
 */
class AutoConfigureLeaseTestingTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(InMemoryLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class))
		.withUserConfiguration(ApplicationTestConfiguration.class);

	@Test
	@DisplayName("A term of an hour passes by advancing the test clock, without sleeping (Operation 6)")
	void termPassesWhenTheClockIsAdvanced() {
		this.runner.run((context) -> {
			long started = System.nanoTime();
			NightlyReport report = context.getBean(NightlyReport.class);
			TestLeaseClock clock = context.getBean(TestLeaseClock.class);
			assertThat(report.run()).isEqualTo("ran");
			assertThat(report.run()).as("held for its term").isNull();
			clock.advance(Duration.ofMinutes(59));
			assertThat(report.run()).as("held for its term").isNull();
			clock.advance(Duration.ofMinutes(1));
			assertThat(report.run()).as("the term has passed").isEqualTo("ran");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
		});
	}

	@Test
	void hostReadsTheTestClockAndReplacesTheAutoConfiguredHost() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(LeaseHost.class).hasSingleBean(TestLeaseClock.class);
			assertThat(context.getBean(LeaseHost.class)).isInstanceOf(InMemoryLeaseHost.class)
				.isSameAs(context.getBean("testLeaseHost"));
		});
	}

	@Test
	void testsOwnClockIsUsed() {
		Instant start = Instant.parse("2026-01-01T00:00:00Z");
		this.runner.withBean(TestLeaseClock.class, () -> new TestLeaseClock(start))
			.run((context) -> assertThat(context.getBean(TestLeaseClock.class).instant()).isEqualTo(start));
	}

	@Test
	void clockNeverGoesBack() {
		TestLeaseClock clock = new TestLeaseClock(Instant.EPOCH);
		assertThatIllegalArgumentException().isThrownBy(() -> clock.advance(Duration.ofSeconds(-1)))
			.withMessageContaining("never goes back");
		assertThat(clock.advance(Duration.ofSeconds(5))).isEqualTo(Instant.EPOCH.plusSeconds(5));
	}

	@Configuration(proxyBeanMethods = false)
	@AutoConfigureLeaseTesting
	static class ApplicationTestConfiguration {

		@Bean
		NightlyReport nightlyReport() {
			return new NightlyReport();
		}

	}

	static class NightlyReport {

		@Leased(key = "'nightly-report'", duration = "1h", holdAtLeast = "1h", mode = LeaseMode.TRY_TAKE,
				onUnavailable = OnUnavailable.SKIP)
		String run() {
			return "ran";
		}

	}

}
