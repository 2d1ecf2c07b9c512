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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.util.StreamUtils;

import dev.lease.autoconfigure.LeaseConfigurationException;
import dev.lease.host.jdbc.JdbcLeaseHost;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the versioned migration scripts under
 * {@code dev/lease/host/jdbc/migration/<platform>/} and for {@link JdbcLeaseSchemaCheck}
 * on tables they leave: tables created by the first script only (as an older release's
 * schema script left them) fail the check naming each missing index or table and the
 * script that adds it, and pass once that script has run; the schema initializer runs
 * them all, on a fresh database, again, and on such tables. Each test uses a table prefix
 * of its own. PostgreSQL is the server of {@code LEASE_TEST_POSTGRES_URL}, else an
 * embedded one; MariaDB is the server of {@code LEASE_TEST_MARIADB_URL}, and its test is
 * skipped without it.
 *
 * @author Lease contributors
 */
class JdbcLeaseSchemaMigrationIntegrationTests {

	private static final String MIGRATION = "classpath:dev/lease/host/jdbc/migration/";

	private final String tablePrefix = "MIG_"
			+ UUID.randomUUID().toString().replace("-", "").substring(0, 12).toUpperCase(Locale.ROOT) + "_";

	@Test
	void olderTablesFailTheCheckNamingTheIndexUntilTheMigrationRunsOnH2() {
		olderTablesFailTheCheckNamingTheIndexUntilTheMigrationRuns(
				new DriverManagerDataSource("jdbc:h2:mem:migration-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1"), "h2");
	}

	@Test
	void olderTablesFailTheCheckNamingTheIndexUntilTheMigrationRunsOnPostgreSql() throws IOException {
		olderTablesFailTheCheckNamingTheIndexUntilTheMigrationRuns(postgres(), "postgresql");
	}

	@Test
	void olderTablesFailTheCheckNamingTheIndexUntilTheMigrationRunsOnMariaDb() throws Exception {
		olderTablesFailTheCheckNamingTheIndexUntilTheMigrationRuns(
				new DriverManagerDataSource(JdbcTestServers.mariadbUrl()), "mysql");
	}

	@Test
	void theMigrationScriptsRunTwiceWhereThePlatformAllowsIt() throws IOException {
		DataSource dataSource = postgres();
		try {
			for (int i = 0; i < 2; i++) {
				run(dataSource, MIGRATION + "postgresql/V1__lease_tables.sql");
				run(dataSource, MIGRATION + "postgresql/V2__lease_waiters_indexes.sql");
				run(dataSource, MIGRATION + "postgresql/V3__lease_protocol.sql");
				run(dataSource, MIGRATION + "postgresql/V4__lease_waiters_arrived_at.sql");
				run(dataSource, MIGRATION + "postgresql/V5__lease_keys_granted_at.sql");
			}
		}
		finally {
			drop(dataSource);
		}
	}

	@Test
	void theInitializerCreatesTheTablesAgainAndBringsOlderOnesUpToDateOnH2() {
		theInitializerCreatesTheTablesAgainAndBringsOlderOnesUpToDate(
				new DriverManagerDataSource("jdbc:h2:mem:migration-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1"));
	}

	@Test
	void theInitializerCreatesTheTablesAgainAndBringsOlderOnesUpToDateOnPostgreSql() {
		theInitializerCreatesTheTablesAgainAndBringsOlderOnesUpToDate(postgres());
	}

	@Test
	void theInitializerCreatesTheTablesAgainAndBringsOlderOnesUpToDateOnMariaDb() throws Exception {
		theInitializerCreatesTheTablesAgainAndBringsOlderOnesUpToDate(
				new DriverManagerDataSource(JdbcTestServers.mariadbUrl()));
	}

	// lease.jdbc.initialize-schema=always on a fresh database, at a second start, and on
	// tables the first script alone created: each time the check finds the whole schema.
	private void theInitializerCreatesTheTablesAgainAndBringsOlderOnesUpToDate(DataSource dataSource) {
		JdbcLeaseHostProperties properties = new JdbcLeaseHostProperties();
		properties.setTablePrefix(this.tablePrefix);
		properties.setInitializeSchema(DatabaseInitializationMode.ALWAYS);
		JdbcLeaseHost host = JdbcLeaseHost.builder(dataSource).tablePrefix(this.tablePrefix).build();
		try {
			for (int start = 0; start < 2; start++) {
				assertThat(new JdbcLeaseHostDataSourceScriptDatabaseInitializer(dataSource, properties)
					.initializeDatabase()).isTrue();
				JdbcLeaseSchemaCheck.check(dataSource, host);
			}
			drop(dataSource);
			run(dataSource, MIGRATION + host.platform() + "/V1__lease_tables.sql");
			assertThatExceptionOfType(LeaseConfigurationException.class)
				.isThrownBy(() -> JdbcLeaseSchemaCheck.check(dataSource, host));
			new JdbcLeaseHostDataSourceScriptDatabaseInitializer(dataSource, properties).initializeDatabase();
			JdbcLeaseSchemaCheck.check(dataSource, host);
		}
		finally {
			host.close();
			drop(dataSource);
		}
	}

	private void olderTablesFailTheCheckNamingTheIndexUntilTheMigrationRuns(DataSource dataSource, String platform) {
		JdbcLeaseHost host = JdbcLeaseHost.builder(dataSource).tablePrefix(this.tablePrefix).build();
		try {
			run(dataSource, MIGRATION + platform + "/V1__lease_tables.sql");
			String waiters = this.tablePrefix + "WAITERS";
			String keys = this.tablePrefix + "KEYS";
			String grantedAt = "table " + keys + " has no column GRANTED_AT (added by " + MIGRATION + platform
					+ "/V5__lease_keys_granted_at.sql)";
			assertThatExceptionOfType(LeaseConfigurationException.class)
				.isThrownBy(() -> JdbcLeaseSchemaCheck.check(dataSource, host))
				.satisfies((ex) -> assertThat(ex.getDescription())
					.contains("table " + waiters + " has no index " + waiters + "_IX3")
					.contains(waiters + "_IX4")
					.contains(MIGRATION + platform + "/V2__lease_waiters_indexes.sql")
					.doesNotContain("_IX1")
					.doesNotContain("_IX2")
					.contains(grantedAt)
					.doesNotContain("table " + keys + " is missing"));
			run(dataSource, MIGRATION + platform + "/V2__lease_waiters_indexes.sql");
			String protocol = this.tablePrefix + "PROTOCOL";
			assertThatExceptionOfType(LeaseConfigurationException.class)
				.isThrownBy(() -> JdbcLeaseSchemaCheck.check(dataSource, host))
				.satisfies((ex) -> assertThat(ex.getDescription()).contains("table " + protocol + " is missing")
					.contains("(added by " + MIGRATION + platform + "/V3__lease_protocol.sql)")
					.doesNotContain("_IX"));
			run(dataSource, MIGRATION + platform + "/V3__lease_protocol.sql");
			assertThatExceptionOfType(LeaseConfigurationException.class)
				.isThrownBy(() -> JdbcLeaseSchemaCheck.check(dataSource, host))
				.satisfies((ex) -> assertThat(ex.getDescription())
					.contains("table " + waiters + " has no column ARRIVED_AT (added by " + MIGRATION + platform
							+ "/V4__lease_waiters_arrived_at.sql)")
					.doesNotContain(protocol));
			// twice, as a migration tool may run it again
			run(dataSource, MIGRATION + platform + "/V4__lease_waiters_arrived_at.sql");
			run(dataSource, MIGRATION + platform + "/V4__lease_waiters_arrived_at.sql");
			assertThatExceptionOfType(LeaseConfigurationException.class)
				.isThrownBy(() -> JdbcLeaseSchemaCheck.check(dataSource, host))
				.satisfies((ex) -> assertThat(ex.getDescription()).contains(grantedAt)
					.doesNotContain("ARRIVED_AT")
					.containsOnlyOnce("has no column"));
			run(dataSource, MIGRATION + platform + "/V5__lease_keys_granted_at.sql");
			run(dataSource, MIGRATION + platform + "/V5__lease_keys_granted_at.sql");
			JdbcLeaseSchemaCheck.check(dataSource, host);
		}
		finally {
			host.close();
			drop(dataSource);
		}
	}

	private static DataSource postgres() {
		return new DriverManagerDataSource(JdbcTestServers.postgresUrl());
	}

	// Runs a shipped script under this test's table prefix, as the schema initializer
	// does.
	private void run(DataSource dataSource, String location) {
		try {
			String sql = StreamUtils.copyToString(new DefaultResourceLoader().getResource(location).getInputStream(),
					StandardCharsets.UTF_8);
			String prefixed = sql.replaceAll("\\bLEASE_(KEYS|WAITERS|PROTOCOL)", this.tablePrefix + "$1");
			new ResourceDatabasePopulator(new ByteArrayResource(prefixed.getBytes(StandardCharsets.UTF_8), location))
				.execute(dataSource);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private void drop(DataSource dataSource) {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("DROP TABLE IF EXISTS " + this.tablePrefix + "WAITERS");
		jdbc.execute("DROP TABLE IF EXISTS " + this.tablePrefix + "KEYS");
		jdbc.execute("DROP TABLE IF EXISTS " + this.tablePrefix + "PROTOCOL");
	}

}
