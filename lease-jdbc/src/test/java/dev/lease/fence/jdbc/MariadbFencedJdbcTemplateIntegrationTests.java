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

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.lease.test.support.JdbcTestServers;

/**
 * Tests for {@link FencedJdbcTemplate} on MariaDB: the server named by
 * {@code LEASE_TEST_MARIADB_URL}; skipped, naming the variable, without it.
 *
 * @author Lease contributors
 */
class MariadbFencedJdbcTemplateIntegrationTests extends FencedJdbcTemplateScenarios {

	private static @Nullable DataSource database;

	// Called first in each test's set-up: without the variable, each test is skipped
	// with a message naming it.
	@Override
	protected DataSource dataSource() {
		DataSource dataSource = database;
		if (dataSource == null) {
			dataSource = new DriverManagerDataSource(JdbcTestServers.mariadbUrl());
			database = dataSource;
		}
		return dataSource;
	}

	/**
	 * The host beside the application's own use of this database.
	 */
	@Nested
	class HostConnection extends JdbcLeaseHostConnectionScenarios {

		@Override
		protected DataSource dataSource() {
			return MariadbFencedJdbcTemplateIntegrationTests.this.dataSource();
		}

	}

}
