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
import java.util.Locale;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.host.jdbc.JdbcLeaseHost;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link JdbcLeaseHostAutoConfiguration} on PostgreSQL: the one named by
 * {@code LEASE_TEST_POSTGRES_URL}, else an embedded one.
 *
 * @author Lease contributors
 */
class JdbcLeaseHostAutoConfigurationIntegrationTests {

	private static DataSource dataSource;

	private final String tablePrefix = "IT_" + UUID.randomUUID().toString().replace("-", "").toUpperCase(Locale.ROOT)
			+ "_";

	@BeforeAll
	static void connect() {
		dataSource = new DriverManagerDataSource(JdbcTestServers.postgresUrl());
	}

	@AfterEach
	void dropTables() {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("DROP TABLE IF EXISTS " + this.tablePrefix + "WAITERS");
		jdbc.execute("DROP TABLE IF EXISTS " + this.tablePrefix + "KEYS");
	}

	private ApplicationContextRunner runner() {
		return runner(dataSource);
	}

	private ApplicationContextRunner runner(DataSource applicationDataSource) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(JdbcLeaseHostAutoConfiguration.class,
					InMemoryLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class))
			.withBean(DataSource.class, () -> applicationDataSource)
			.withPropertyValues("lease.jdbc.table-prefix=" + this.tablePrefix);
	}

	@Test
	void initializeSchemaAlwaysCreatesThePrefixedTablesOnPostgreSqlAndTheHostUsesThem() {
		runner().withPropertyValues("lease.jdbc.initialize-schema=always").run((context) -> {
			JdbcLeaseHost host = context.getBean(JdbcLeaseHost.class);
			assertThat(host.platform()).isEqualTo("postgresql");
			JdbcTemplate jdbc = new JdbcTemplate(dataSource);
			assertThat(tableCount(jdbc, this.tablePrefix + "KEYS")).isOne();
			assertThat(tableCount(jdbc, this.tablePrefix + "WAITERS")).isOne();
			LeaseKey key = LeaseKey.of("key-" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
			assertThat(host.tryTake(key, holder, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM " + this.tablePrefix + "KEYS", Integer.class)).isOne();
			assertThat(host.release(key, holder)).isInstanceOf(Released.class);
		});
	}

	@Test
	void initializeSchemaEmbeddedLeavesAServerDatabaseAloneAndStartUpFailsWithoutItsTables() {
		runner().run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("table " + this.tablePrefix + "KEYS is missing")
				.hasMessageContaining("lease.jdbc.initialize-schema=always")
				.hasMessageContaining("classpath:dev/lease/host/jdbc/migration/postgresql/V*__*.sql");
			assertThat(tableCount(new JdbcTemplate(dataSource), this.tablePrefix + "KEYS")).isZero();
		});
	}

	@Test
	void hostStartedWithTheDatabaseDownWorksOnceTheDatabaseAnswers() {
		DelegatingDataSource switching = new DelegatingDataSource(new SimpleDriverDataSource(
				new org.postgresql.Driver(), JdbcLeaseHostDatabaseDownAtStartTests.CLOSED_PORT_URL));
		runner(switching).withPropertyValues("lease.jdbc.initialize-schema=always").run((context) -> {
			assertThat(context).hasNotFailed();
			JdbcLeaseHost host = context.getBean(JdbcLeaseHost.class);
			LeaseKey key = LeaseKey.of("key-" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.tryTake(key, holder, Duration.ofSeconds(30)));
			switching.setTargetDataSource(dataSource);
			// initialize-schema did not run with the database down: the user creates
			// them
			assertThat(tableCount(new JdbcTemplate(dataSource), this.tablePrefix + "KEYS")).isZero();
			JdbcLeaseHostProperties properties = new JdbcLeaseHostProperties();
			properties.setTablePrefix(this.tablePrefix);
			properties.setInitializeSchema(DatabaseInitializationMode.ALWAYS);
			new JdbcLeaseHostDataSourceScriptDatabaseInitializer(dataSource, properties).initializeDatabase();
			assertThat(host.platform()).isEqualTo("postgresql");
			assertThat(host.tryTake(key, holder, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
			assertThat(host.tryTake(key, LeaseHolder.of("other"), Duration.ofSeconds(30))).isInstanceOf(Held.class);
			assertThat(host.release(key, holder)).isInstanceOf(Released.class);
		});
	}

	private static int tableCount(JdbcTemplate jdbc, String table) {
		Integer count = jdbc.queryForObject("SELECT COUNT(*) FROM information_schema.tables WHERE table_name = ?",
				Integer.class, table.toLowerCase(Locale.ROOT));
		return (count != null) ? count : 0;
	}

}
