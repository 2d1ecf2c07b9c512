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

import java.io.IOException;
import java.sql.SQLException;
import java.util.Map;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import dev.lease.test.support.JdbcTestServers;

/**
 * Tests for {@link JdbcLeaseHost} on PostgreSQL with its connection table full: an
 * embedded server of the test's own with {@code max_connections} 16.
 *
 * @author Lease contributors
 */
class PostgresqlFullConnectionTableIntegrationTests extends JdbcFullConnectionTableChecks {

	private EmbeddedPostgres postgres;

	@Override
	String startServer() {
		// No slot kept for superusers: the test's user is one, and must fill them all.
		this.postgres = JdbcTestServers
			.ownPostgres(Map.of("max_connections", "16", "superuser_reserved_connections", "0"));
		return this.postgres.getJdbcUrl("postgres", "postgres");
	}

	@Override
	void stopServer() {
		try {
			this.postgres.close();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	String platform() {
		return "postgresql";
	}

	// 53300: too_many_connections.
	@Override
	boolean full(SQLException refusal) {
		return "53300".equals(refusal.getSQLState());
	}

}
