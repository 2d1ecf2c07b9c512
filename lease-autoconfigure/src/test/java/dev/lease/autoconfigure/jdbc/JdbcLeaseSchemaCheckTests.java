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

import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseConfigurationException;
import dev.lease.autoconfigure.LeaseConfigurationFailureAnalyzer;
import dev.lease.host.jdbc.JdbcLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JdbcLeaseSchemaCheck}: missing or mismatched tables fail start-up with
 * a report naming {@code lease.jdbc.initialize-schema=always} and the DDL's location,
 * instead of failing every leased call.
 *
 * @author Lease contributors
 */
class JdbcLeaseSchemaCheckTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				JdbcLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class))
		.withPropertyValues("spring.datasource.generate-unique-name=true", "lease.host=jdbc");

	@Test
	void missingTablesFailStartUpNamingTheFixAndTheScript() {
		this.runner.withPropertyValues("lease.jdbc.initialize-schema=never").run((context) -> {
			assertThat(context).hasFailed();
			LeaseConfigurationException failure = failure(context.getStartupFailure());
			assertThat(failure.getDescription()).contains("table LEASE_KEYS is missing")
				.contains("table LEASE_WAITERS is missing");
			assertThat(failure.getAction()).contains("lease.jdbc.initialize-schema=always")
				.contains("classpath:dev/lease/host/jdbc/migration/h2/V*__*.sql");
			assertThat(analyzed(context.getStartupFailure()).getAction())
				.contains("lease.jdbc.initialize-schema=always");
		});
	}

	@Test
	void aTableWithoutAColumnOfTheSchemaFailsStartUpNamingIt() {
		this.runner.withUserConfiguration(OldTablesConfiguration.class)
			.withPropertyValues("lease.jdbc.initialize-schema=never")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(failure(context.getStartupFailure()).getDescription())
					.contains("table LEASE_WAITERS has no column")
					.contains("GRANTED_EXPIRES_AT")
					.contains("table LEASE_KEYS has no column GRANTED_AT")
					.doesNotContain("table LEASE_KEYS is missing");
			});
	}

	@Test
	void tablesOfAnEarlierVersionFailStartUpNamingEachMissingIndexAndColumnAndTheMigrationThatAddsIt() {
		this.runner.withUserConfiguration(VersionOneTablesConfiguration.class)
			.withPropertyValues("lease.jdbc.initialize-schema=never")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(failure(context.getStartupFailure()).getDescription())
					.contains("table LEASE_WAITERS has no index LEASE_WAITERS_IX3 (added by"
							+ " classpath:dev/lease/host/jdbc/migration/h2/V2__lease_waiters_indexes.sql)")
					.contains("LEASE_WAITERS_IX4")
					.contains("table LEASE_WAITERS has no column ARRIVED_AT (added by"
							+ " classpath:dev/lease/host/jdbc/migration/h2/V4__lease_waiters_arrived_at.sql)")
					.contains("table LEASE_KEYS has no column GRANTED_AT (added by"
							+ " classpath:dev/lease/host/jdbc/migration/h2/V5__lease_keys_granted_at.sql)")
					.containsOnlyOnce("LEASE_WAITERS has no column")
					.containsOnlyOnce("LEASE_KEYS has no column");
				assertThat(analyzed(context.getStartupFailure()).getAction())
					.contains("classpath:dev/lease/host/jdbc/migration/h2/");
			});
	}

	@Test
	void tablesWithAnotherPrefixAreCheckedUnderThatPrefix() {
		this.runner.withPropertyValues("lease.jdbc.initialize-schema=always", "lease.jdbc.table-prefix=ORDERS_LEASE_")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(JdbcLeaseHost.class));
		this.runner.withPropertyValues("lease.jdbc.initialize-schema=never", "lease.jdbc.table-prefix=ORDERS_LEASE_")
			.run((context) -> assertThat(failure(context.getStartupFailure()).getDescription())
				.contains("table ORDERS_LEASE_KEYS is missing"));
	}

	@Test
	void theExpectedColumnsAreReadFromTheScriptOfEachPlatform() {
		for (String platform : new String[] { "h2", "postgresql", "mysql" }) {
			assertThat(JdbcLeaseSchemaCheck.expected(platform, "LEASE_")).as(platform)
				.containsOnlyKeys("LEASE_KEYS", "LEASE_WAITERS", "LEASE_PROTOCOL")
				.allSatisfy((table, columns) -> assertThat(columns).isNotEmpty()
					.doesNotContain("CONSTRAINT", "PRIMARY", "INDEX", "--"));
		}
	}

	@Test
	void theExpectedIndexesAreReadFromTheScriptOfEachPlatformEachNamingTheMigrationThatAddsIt() {
		for (String platform : new String[] { "h2", "postgresql", "mysql" }) {
			assertThat(JdbcLeaseSchemaCheck.expectedIndexes(platform, "ORDERS_LEASE_")).as(platform)
				.containsExactly(Map.entry("ORDERS_LEASE_WAITERS", Set.of("ORDERS_LEASE_WAITERS_IX1",
						"ORDERS_LEASE_WAITERS_IX2", "ORDERS_LEASE_WAITERS_IX3", "ORDERS_LEASE_WAITERS_IX4")));
			String migration = "classpath:dev/lease/host/jdbc/migration/" + platform + "/";
			assertThat(JdbcLeaseSchemaCheck.migrationCreating(platform, "LEASE_WAITERS_IX1"))
				.isEqualTo(migration + "V1__lease_tables.sql");
			assertThat(JdbcLeaseSchemaCheck.migrationCreating(platform, "LEASE_WAITERS_IX4"))
				.isEqualTo(migration + "V2__lease_waiters_indexes.sql");
		}
	}

	@Test
	void aDatabaseThatDoesNotAnswerIsNotJudgedAtStartUp() {
		DataSource unreachable = new DriverManagerDataSource("jdbc:postgresql://127.0.0.1:1/none?connectTimeout=1");
		JdbcLeaseHost host = JdbcLeaseHost.builder(new DriverManagerDataSource("jdbc:h2:mem:schema-check-answering"))
			.build();
		try {
			JdbcLeaseSchemaCheck.check(unreachable, host);
		}
		finally {
			host.close();
		}
	}

	private static LeaseConfigurationException failure(Throwable failure) {
		Throwable cause = failure;
		while (cause != null && !(cause instanceof LeaseConfigurationException)) {
			cause = cause.getCause();
		}
		assertThat(cause).as("a LeaseConfigurationException in " + failure).isNotNull();
		return (LeaseConfigurationException) cause;
	}

	private static FailureAnalysis analyzed(Throwable failure) {
		FailureAnalysis analysis = new LeaseConfigurationFailureAnalyzer().analyze(failure);
		assertThat(analysis).as("the analysis of " + failure).isNotNull();
		return analysis;
	}

	@Configuration(proxyBeanMethods = false)
	static class OldTablesConfiguration {

		// tables as an older release might have left them: the waiters lack a column
		@Bean
		TablesCreated oldTables(DataSource dataSource) {
			JdbcTemplate jdbc = new JdbcTemplate(dataSource);
			jdbc.execute("CREATE TABLE LEASE_KEYS (LEASE_KEY VARBINARY(1024) NOT NULL PRIMARY KEY,"
					+ " HOLDER VARBINARY(1024), EXPIRES_AT BIGINT, LATEST BIGINT NOT NULL, QUEUED INTEGER NOT NULL,"
					+ " ARRIVALS BIGINT NOT NULL)");
			jdbc.execute("CREATE TABLE LEASE_WAITERS (WAITER_ID BIGINT NOT NULL PRIMARY KEY,"
					+ " LEASE_KEY VARBINARY(1024) NOT NULL, HOLDER VARBINARY(1024) NOT NULL,"
					+ " DURATION_MICROS BIGINT NOT NULL, BOUND BIGINT NOT NULL, ARRIVAL BIGINT NOT NULL)");
			return new TablesCreated();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class VersionOneTablesConfiguration {

		// tables as the first versioned script leaves them: no index added since
		@Bean
		TablesCreated versionOneTables(DataSource dataSource) {
			new ResourceDatabasePopulator(
					new ClassPathResource("dev/lease/host/jdbc/migration/h2/V1__lease_tables.sql"))
				.execute(dataSource);
			return new TablesCreated();
		}

	}

	static final class TablesCreated {

	}

}
