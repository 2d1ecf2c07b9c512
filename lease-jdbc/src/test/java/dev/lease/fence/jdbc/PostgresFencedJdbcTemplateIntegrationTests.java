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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

/**
 * Tests for {@link FencedJdbcTemplate} on PostgreSQL: the server named by
 * {@code LEASE_TEST_POSTGRES_URL}, else an embedded one.
 *
 * @author Lease contributors
 */
class PostgresFencedJdbcTemplateIntegrationTests extends FencedJdbcTemplateScenarios {

	private static FenceTestServers.Database database;

	@BeforeAll
	static void startDatabase() throws Exception {
		database = FenceTestServers.postgres();
	}

	@AfterAll
	static void stopDatabase() throws Exception {
		database.close();
	}

	@Override
	protected DataSource dataSource() {
		return database.dataSource();
	}

	/**
	 * The host beside the application's own use of this database.
	 */
	@Nested
	class HostConnection extends JdbcLeaseHostConnectionScenarios {

		@Override
		protected DataSource dataSource() {
			return PostgresFencedJdbcTemplateIntegrationTests.this.dataSource();
		}

	}

}
