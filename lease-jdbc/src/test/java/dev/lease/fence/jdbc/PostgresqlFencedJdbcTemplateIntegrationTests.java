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

package dev.lease.fence.jdbc;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.lease.test.support.JdbcTestServers;

/**
 * Tests for {@link FencedJdbcTemplate} on PostgreSQL: the server named by
 * {@code LEASE_TEST_POSTGRES_URL}, else an embedded one.
 *
 * @author Lease contributors
 */
class PostgresqlFencedJdbcTemplateIntegrationTests extends FencedJdbcTemplateScenarios {

	private static DataSource database;

	@BeforeAll
	static void connect() {
		database = new DriverManagerDataSource(JdbcTestServers.postgresUrl());
	}

	@Override
	protected DataSource dataSource() {
		return database;
	}

	/**
	 * The host beside the application's own use of this database.
	 */
	@Nested
	class HostConnection extends JdbcLeaseHostConnectionScenarios {

		@Override
		protected DataSource dataSource() {
			return PostgresqlFencedJdbcTemplateIntegrationTests.this.dataSource();
		}

	}

}
