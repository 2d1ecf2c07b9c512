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

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import dev.lease.LeaseHost;
import dev.lease.host.jdbc.JdbcLeaseHost;
import dev.lease.test.support.JdbcTestServers;

/**
 * Tests for {@link LeaseLockProvider} over a {@link JdbcLeaseHost} on the PostgreSQL
 * database named by {@code LEASE_TEST_POSTGRES_URL}, else an embedded one, its tables
 * made by the shipped schema script: ShedLock's provider suite and the lease's own
 * checks.
 *
 * @author Lease contributors
 */
class PostgresqlLeaseLockProviderIntegrationTests extends LeaseLockProviderConformance {

	private static HikariDataSource dataSource;

	private static JdbcLeaseHost host;

	@BeforeAll
	static void startHost() {
		dataSource = JdbcTestServers.postgres();
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
