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

package dev.lease.host.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;

import dev.lease.test.support.JdbcTestServers;

/**
 * Tests for {@link JdbcLeaseHost} on MariaDB: random schedules, checked against the atom.
 * Skipped unless {@code LEASE_TEST_MARIADB_URL} names a server.
 *
 * @author Lease contributors
 */
@AddLifecycleHook(MariadbJdbcLeaseHostScheduleIntegrationTests.MariadbNamed.class)
class MariadbJdbcLeaseHostScheduleIntegrationTests extends JdbcLeaseHostScheduleProperties {

	@Override
	HikariDataSource dataSource() {
		return JdbcTestServers.mariadb();
	}

	/**
	 * Skips the property, with a message naming the variable, when no MariaDB is named.
	 */
	static class MariadbNamed implements SkipExecutionHook {

		@Override
		public SkipResult shouldBeSkipped(LifecycleContext context) {
			String url = System.getenv(JdbcTestServers.MARIADB_VARIABLE);
			return (url != null && !url.isBlank()) ? SkipResult.doNotSkip()
					: SkipResult.skip("MariaDB tests skipped: set " + JdbcTestServers.MARIADB_VARIABLE
							+ " (e.g. jdbc:mariadb://127.0.0.1:3306/test?user=root)");
		}

	}

}
