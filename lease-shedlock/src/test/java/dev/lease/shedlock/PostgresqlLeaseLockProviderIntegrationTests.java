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

package dev.lease.shedlock;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import dev.lease.LeaseHost;
import dev.lease.host.jdbc.JdbcLeaseHost;

/**
 * Tests for {@link LeaseLockProvider} over a {@link JdbcLeaseHost} on the PostgreSQL
 * database named by {@code LEASE_TEST_POSTGRES_URL}, its tables made by the shipped
 * schema script: ShedLock's provider suite and the lease's own checks. The embedded
 * fallback of the host's tests lives in lease-tck's test sources, which this module
 * cannot reach, so without the variable these tests are skipped, saying so.
 *
 * @author Lease contributors
 */
class PostgresqlLeaseLockProviderIntegrationTests extends LeaseLockProviderConformance {

	private static final String URL_VARIABLE = "LEASE_TEST_POSTGRES_URL";

	private static HikariDataSource dataSource;

	private static JdbcLeaseHost host;

	@BeforeAll
	static void startHost() {
		String url = System.getenv(URL_VARIABLE);
		Assumptions.assumeTrue(url != null && !url.isBlank(),
				URL_VARIABLE + " is not set: no PostgreSQL database to run the ShedLock suite on");
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url.trim());
		config.setMaximumPoolSize(16);
		config.setPoolName("lease-shedlock-test");
		dataSource = new HikariDataSource(config);
		// The shipped script, never test-only DDL; it creates the tables only if absent.
		new ResourceDatabasePopulator(new ClassPathResource("dev/lease/host/jdbc/schema-postgresql.sql"))
			.execute(dataSource);
		host = JdbcLeaseHost.builder(dataSource).build();
	}

	@AfterAll
	static void stopHost() {
		if (host != null) {
			host.close();
		}
		if (dataSource != null) {
			dataSource.close();
		}
	}

	@Override
	protected LeaseHost host() {
		return host;
	}

}
