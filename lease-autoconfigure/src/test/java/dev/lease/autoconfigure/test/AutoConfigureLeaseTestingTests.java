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
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.Taken;
import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.autoconfigure.jdbc.JdbcLeaseHostAutoConfiguration;
import dev.lease.autoconfigure.redis.RedisLeaseHostAutoConfiguration;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link AutoConfigureLeaseTesting}: an application's leased code on the
 * in-memory host, on a clock the test advances.
 *
 * @author Lease contributors
 */
class AutoConfigureLeaseTestingTests {

	// Well under the 10 s term a waiter would otherwise sleep for on the JVM's timer.
	private static final Duration SHORT = Duration.ofSeconds(5);

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
	@DisplayName("Operation 2: a @Leased take waiting for another holder is granted when the clock is advanced past that holder's instant, without sleeping for the term")
	void waitingTakeIsGrantedWhenTheClockPassesTheHoldersInstant() {
		this.runner.run((context) -> {
			LeaseHost host = context.getBean(LeaseHost.class);
			TestLeaseClock clock = context.getBean(TestLeaseClock.class);
			Settlement settlement = context.getBean(Settlement.class);
			LeaseKey key = LeaseKey.of("settlement");
			assertThat(host.tryTake(key, LeaseHolder.of("a"), Duration.ofSeconds(10))).isInstanceOf(Taken.class);
			CompletableFuture<String> waiting = inThread(settlement::settle);
			await().atMost(Duration.ofSeconds(10)).until(() -> queued(host, key, Settlement.HOLDER));
			clock.advance(Duration.ofSeconds(11));
			assertThat(waiting).succeedsWithin(SHORT).isEqualTo("settled");
			assertThat(host.grant(key)).as("released after the call").isEmpty();
		});
	}

	@Test
	@DisplayName("Operation 11: a grant held at least 30 s after its work is released when the clock is advanced past the hold, without sleeping for it")
	void holdPassesWhenTheClockIsAdvanced() {
		this.runner.run((context) -> {
			LeaseHost host = context.getBean(LeaseHost.class);
			TestLeaseClock clock = context.getBean(TestLeaseClock.class);
			HeldReport report = context.getBean(HeldReport.class);
			LeaseKey key = LeaseKey.of("held-report");
			assertThat(report.run()).isEqualTo("ran");
			assertThat(host.tryTake(key, LeaseHolder.of("other-instance"), Duration.ofMinutes(1)))
				.isInstanceOf(Held.class);
			assertThat(report.run()).as("held at least 30 s").isNull();
			clock.advance(Duration.ofSeconds(31));
			assertThat(host.grant(key)).as("released once the hold passed").isEmpty();
			assertThat(report.run()).as("the hold has passed").isEqualTo("ran");
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
	void hostReplacesTheJdbcHostOfAnApplicationWithADataSource() {
		this.runner.withConfiguration(AutoConfigurations.of(JdbcLeaseHostAutoConfiguration.class))
			.withUserConfiguration(DataSourceConfiguration.class)
			.run((context) -> assertLeasesTakenOnTheTestingHost(context));
	}

	@Test
	void hostReplacesTheRedisHostOfAnApplicationWithARedisConnectionFactory() {
		this.runner.withConfiguration(AutoConfigurations.of(RedisLeaseHostAutoConfiguration.class))
			.withUserConfiguration(RedisConfiguration.class)
			.run((context) -> assertLeasesTakenOnTheTestingHost(context));
	}

	@Test
	void hostReplacesTheApplicationsOwnLeaseHostBean() {
		this.runner.withUserConfiguration(ApplicationLeaseHostConfiguration.class)
			.run((context) -> assertLeasesTakenOnTheTestingHost(context));
	}

	@Test
	void hostReplacesTheHostChosenByLeaseHost() {
		this.runner.withConfiguration(AutoConfigurations.of(JdbcLeaseHostAutoConfiguration.class))
			.withUserConfiguration(DataSourceConfiguration.class)
			.withPropertyValues("lease.host=jdbc")
			.run((context) -> assertLeasesTakenOnTheTestingHost(context));
	}

	private static void assertLeasesTakenOnTheTestingHost(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed().hasSingleBean(LeaseHost.class);
		LeaseHost host = context.getBean(LeaseHost.class);
		assertThat(host).isSameAs(context.getBean("testLeaseHost"));
		assertThat(context.getBean(NightlyReport.class).run()).isEqualTo("ran");
		assertThat(host.grant(LeaseKey.of("nightly-report"))).as("taken on the testing host").isPresent();
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

	// The holder waits for the key once a try take of its own is refused as re-entrant.
	private static boolean queued(LeaseHost host, LeaseKey key, LeaseHolder holder) {
		try {
			host.tryTake(key, holder, Duration.ofSeconds(1));
			return false;
		}
		catch (ReentrantTakeException ex) {
			return true;
		}
	}

	private static <T> CompletableFuture<T> inThread(Supplier<T> call) {
		CompletableFuture<T> answer = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				answer.complete(call.get());
			}
			catch (Throwable ex) {
				answer.completeExceptionally(ex);
			}
		});
		thread.setDaemon(true);
		thread.start();
		return answer;
	}

	@Configuration(proxyBeanMethods = false)
	@AutoConfigureLeaseTesting
	static class ApplicationTestConfiguration {

		@Bean
		NightlyReport nightlyReport() {
			return new NightlyReport();
		}

		@Bean
		Settlement settlement() {
			return new Settlement();
		}

		@Bean
		HeldReport heldReport() {
			return new HeldReport();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DataSourceConfiguration {

		@Bean
		DataSource ordersDataSource() {
			JdbcDataSource dataSource = new JdbcDataSource();
			dataSource.setURL("jdbc:h2:mem:orders-lease-testing");
			return dataSource;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RedisConfiguration {

		@Bean
		LettuceConnectionFactory cacheConnectionFactory() {
			// never started: the testing host must not need a connection
			LettuceConnectionFactory factory = new LettuceConnectionFactory();
			factory.setEarlyStartup(false);
			factory.setAutoStartup(false);
			return factory;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ApplicationLeaseHostConfiguration {

		@Bean
		LeaseHost applicationLeaseHost() {
			return new InMemoryLeaseHost();
		}

	}

	static class NightlyReport {

		@Leased(key = "'nightly-report'", duration = "1h", holdAtLeast = "1h", mode = LeaseMode.TRY_TAKE,
				onUnavailable = OnUnavailable.SKIP)
		String run() {
			return "ran";
		}

	}

	static class Settlement {

		static final LeaseHolder HOLDER = LeaseHolder.of("b");

		@Leased(key = "'settlement'", holder = "'b'", duration = "PT10S", mode = LeaseMode.TAKE)
		String settle() {
			return "settled";
		}

	}

	static class HeldReport {

		@Leased(key = "'held-report'", duration = "PT10M", holdAtLeast = "PT30S", mode = LeaseMode.TRY_TAKE,
				onUnavailable = OnUnavailable.SKIP)
		String run() {
			return "ran";
		}

	}

}
