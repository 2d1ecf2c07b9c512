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

package dev.lease.autoconfigure.jdbc;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.autoconfigure.CustomLeaseHost;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseConfigurationFailureAnalyzer;
import dev.lease.autoconfigure.LeaseHostSelection;
import dev.lease.autoconfigure.LeaseHostThreadsAutoConfiguration;
import dev.lease.autoconfigure.NoLeaseHostException;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.host.jdbc.JdbcLeaseHost;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link JdbcLeaseHostAutoConfiguration}.
 *
 * @author Lease contributors
 */
class JdbcLeaseHostAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcLeaseHostAutoConfiguration.class,
						InMemoryLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class))
		.withPropertyValues("spring.datasource.generate-unique-name=true");

	@Test
	void runWithDataSourceDetectsTheJdbcHostAndCreatesItsTablesOnH2() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(JdbcLeaseHost.class)
				.hasSingleBean(LeaseHost.class)
				.hasSingleBean(JdbcLeaseHostDataSourceScriptDatabaseInitializer.class);
			assertThat(context.getBean(LeaseHostSelection.class).host()).isInstanceOf(JdbcLeaseHost.class);
			JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM LEASE_KEYS", Integer.class)).isZero();
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM LEASE_WAITERS", Integer.class)).isZero();
		});
	}

	@Test
	void hostTakesAndReleasesInTheCreatedTables() {
		this.runner.run((context) -> {
			JdbcLeaseHost host = context.getBean(JdbcLeaseHost.class);
			LeaseKey key = LeaseKey.of("key-" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
			JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
			assertThat(host.tryTake(key, holder, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM LEASE_KEYS", Integer.class)).isOne();
			assertThat(host.release(key, holder)).isInstanceOf(Released.class);
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM LEASE_KEYS", Integer.class)).isZero();
		});
	}

	@Test
	void runWithHostJdbcCreatesTheJdbcHost() {
		this.runner.withPropertyValues("lease.host=jdbc")
			.run((context) -> assertThat(context).hasSingleBean(JdbcLeaseHost.class));
	}

	@Test
	void runWithHostMemoryDoesNotCreateTheJdbcHost() {
		this.runner.withPropertyValues("lease.host=memory")
			.run((context) -> assertThat(context).hasSingleBean(InMemoryLeaseHost.class)
				.doesNotHaveBean(JdbcLeaseHost.class)
				.doesNotHaveBean(JdbcLeaseHostDataSourceScriptDatabaseInitializer.class));
	}

	@Test
	void runWithUserLeaseHostBacksOff() {
		this.runner.withUserConfiguration(UserHostConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(LeaseHost.class)
				.hasSingleBean(CustomLeaseHost.class)
				.doesNotHaveBean(JdbcLeaseHost.class)
				.doesNotHaveBean(JdbcLeaseHostDataSourceScriptDatabaseInitializer.class);
			assertThat(tableCount(new JdbcTemplate(context.getBean(DataSource.class)), "LEASE_KEYS")).isZero();
		});
	}

	@Test
	void runWithoutSpringJdbcBesideADataSourceRefusesToFallBackToMemory() {
		this.runner.withClassLoader(new FilteredClassLoader(JdbcTemplate.class))
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(NoLeaseHostException.class)
				.hasMessageContaining("DataSource bean 'dataSource'")
				.hasMessageContaining("lease.host=memory"));
	}

	@Test
	void runWithoutSpringJdbcAndLeaseHostMemoryUsesMemory() {
		this.runner.withClassLoader(new FilteredClassLoader(JdbcTemplate.class))
			.withPropertyValues("lease.host=memory")
			.run((context) -> assertThat(context).doesNotHaveBean(JdbcLeaseHost.class)
				.hasSingleBean(InMemoryLeaseHost.class));
	}

	@Test
	void runWithHostJdbcButNoDataSourceFailsWithTheAnalyzedExplanation() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(JdbcLeaseHostAutoConfiguration.class,
					InMemoryLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class))
			.withPropertyValues("lease.host=jdbc")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOf(NoLeaseHostException.class);
				NoLeaseHostException failure = (NoLeaseHostException) context.getStartupFailure();
				assertThat(failure.getDescription())
					.isEqualTo("lease.host is 'jdbc' but no jdbc lease host could be created");
				assertThat(failure.getAction()).contains("DataSource");
			});
	}

	@Test
	void tablePrefixPropertyNamesTheTablesTheHostCreatesAndUses() {
		this.runner.withPropertyValues("lease.jdbc.table-prefix=ORDERS_LEASE_").run((context) -> {
			JdbcLeaseHost host = context.getBean(JdbcLeaseHost.class);
			assertThat(host.tablePrefix()).isEqualTo("ORDERS_LEASE_");
			LeaseKey key = LeaseKey.of("key-" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
			assertThat(host.tryTake(key, holder, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
			JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM ORDERS_LEASE_KEYS", Integer.class)).isOne();
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM ORDERS_LEASE_WAITERS", Integer.class)).isZero();
			assertThat(tableCount(jdbc, "LEASE_KEYS")).isZero();
		});
	}

	@Test
	void tablePrefixPropertyNamesTheProtocolRecordTheHostWrites() {
		this.runner.withPropertyValues("lease.jdbc.table-prefix=ORDERS_LEASE_").run((context) -> {
			JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
			assertThat(jdbc.queryForList("SELECT PROTOCOL_VERSION, WORKS_BESIDE_SINCE FROM ORDERS_LEASE_PROTOCOL"))
				.containsExactly(Map.of("PROTOCOL_VERSION", 2, "WORKS_BESIDE_SINCE", 2));
			assertThat(tableCount(jdbc, "LEASE_PROTOCOL")).isZero();
		});
	}

	@Test
	void startBesideAProtocolItCannotWorkBesideFailsWithTheAnalyzedExplanation() {
		String url = "jdbc:h2:mem:protocol-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
		DriverManagerDataSource stamped = new DriverManagerDataSource(url);
		JdbcTestServers.withSchema(stamped, "h2");
		new JdbcTemplate(stamped)
			.update("INSERT INTO LEASE_PROTOCOL (RECORD_ID, PROTOCOL_VERSION, WORKS_BESIDE_SINCE) VALUES (1, 3, 3)");
		this.runner.withBean(DataSource.class, () -> stamped).withPropertyValues("lease.host=jdbc").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new LeaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("table LEASE_PROTOCOL records protocol 3")
				.contains("this instance speaks protocol 2");
			assertThat(analysis.getAction()).contains("deploy that release here too")
				.contains("DELETE FROM LEASE_PROTOCOL");
		});
	}

	@Test
	void cleanupIntervalPropertyRemovesPassedGrantsWithNoCall() {
		this.runner.withPropertyValues("lease.jdbc.cleanup-interval=200ms").run((context) -> {
			JdbcLeaseHost host = context.getBean(JdbcLeaseHost.class);
			LeaseKey key = LeaseKey.of("key-" + UUID.randomUUID());
			assertThat(host.tryTake(key, LeaseHolder.of("holder"), Duration.ofMillis(50))).isInstanceOf(Taken.class);
			JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
			await().atMost(Duration.ofSeconds(2))
				.until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM LEASE_KEYS WHERE LEASE_KEY = ?", Integer.class,
						(Object) key.bytes()) == 0);
		});
	}

	@Test
	void negativeCleanupIntervalIsRefusedAtStartUp() {
		this.runner.withPropertyValues("lease.jdbc.cleanup-interval=-1s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("for lease.jdbc.cleanup-interval");
		});
	}

	@Test
	void tablePrefixThatIsNotAnIdentifierIsRefusedAtStartUp() {
		this.runner.withPropertyValues("lease.jdbc.table-prefix=X; DROP TABLE USERS; --").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("for lease.jdbc.table-prefix")
				.rootCause()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("must be an SQL identifier")
				.hasMessageContaining("'X; DROP TABLE USERS; --'");
		});
	}

	@Test
	void initializeSchemaNeverCreatesNoTables() {
		this.runner.withPropertyValues("lease.jdbc.initialize-schema=never", "lease.jdbc.check-schema=false")
			.run((context) -> {
				assertThat(context).hasSingleBean(JdbcLeaseHost.class)
					.doesNotHaveBean(JdbcLeaseHostDataSourceScriptDatabaseInitializer.class);
				JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
				assertThat(tableCount(jdbc, "LEASE_KEYS")).isZero();
				assertThatExceptionOfType(RuntimeException.class)
					.isThrownBy(() -> jdbc.queryForObject("SELECT COUNT(*) FROM LEASE_KEYS", Integer.class));
			});
	}

	@Test
	void schemaPropertiesBindWithTheirDefaults() {
		this.runner.run((context) -> {
			JdbcLeaseHostProperties properties = context.getBean(JdbcLeaseHostProperties.class);
			assertThat(properties.getTablePrefix()).isEqualTo(JdbcLeaseHost.DEFAULT_TABLE_PREFIX);
			assertThat(properties.getSchema()).isEqualTo(JdbcLeaseHost.SCHEMA_LOCATION);
			assertThat(properties.getInitializeSchema()).isEqualTo(DatabaseInitializationMode.EMBEDDED);
			assertThat(properties.isNotifications()).isTrue();
			assertThat(properties.isCheckSchema()).isTrue();
			assertThat(properties.isContinueOnError()).isTrue();
		});
	}

	@Test
	void userInitializerBacksOffOurs() {
		this.runner.withUserConfiguration(UserInitializerConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(JdbcLeaseHostDataSourceScriptDatabaseInitializer.class)
				.hasBean("customInitializer"));
	}

	@Test
	void customizersAreAppliedInOrderAfterTheApplicationsThreads() {
		this.runner
			.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class,
					LeaseHostThreadsAutoConfiguration.class))
			.withUserConfiguration(CustomizersConfiguration.class)
			.run((context) -> {
				CustomizersConfiguration customizers = context.getBean(CustomizersConfiguration.class);
				assertThat(customizers.applied).containsExactly("first", "second");
				LeaseKey key = LeaseKey.of("key-" + UUID.randomUUID());
				LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
				assertThat(context.getBean(LeaseHost.class)
					.async()
					.tryTake(key, holder, Duration.ofSeconds(30))
					.get(30, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
				assertThat(customizers.tasks).hasPositiveValue();
			});
	}

	private static int tableCount(JdbcTemplate jdbc, String table) {
		Integer count = jdbc.queryForObject("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = ?",
				Integer.class, table);
		return (count != null) ? count : 0;
	}

	@Configuration(proxyBeanMethods = false)
	static class UserHostConfiguration {

		@Bean
		CustomLeaseHost customLeaseHost() {
			return new CustomLeaseHost();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserInitializerConfiguration {

		@Bean
		JdbcLeaseHostDataSourceScriptDatabaseInitializer customInitializer(DataSource dataSource) {
			return new JdbcLeaseHostDataSourceScriptDatabaseInitializer(dataSource, new JdbcLeaseHostProperties());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomizersConfiguration {

		final List<String> applied = new CopyOnWriteArrayList<>();

		final AtomicInteger tasks = new AtomicInteger();

		@Bean
		@Order(2)
		JdbcLeaseHostBuilderCustomizer secondCustomizer() {
			return (builder) -> {
				this.applied.add("second");
				builder.executor((task) -> {
					this.tasks.incrementAndGet();
					new Thread(task).start();
				});
			};
		}

		@Bean
		@Order(1)
		JdbcLeaseHostBuilderCustomizer firstCustomizer() {
			return (builder) -> this.applied.add("first");
		}

	}

}
