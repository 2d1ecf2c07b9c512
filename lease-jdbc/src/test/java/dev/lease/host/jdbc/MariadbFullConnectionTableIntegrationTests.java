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

import java.sql.SQLException;

import dev.lease.test.support.MariadbTestServer;

/**
 * Tests for {@link JdbcLeaseHost} on MariaDB with its connection table full: a
 * {@code mariadbd} of the test's own with {@code max_connections} 12, never the shared
 * server.
 *
 * @author Lease contributors
 */
class MariadbFullConnectionTableIntegrationTests extends JdbcFullConnectionTableChecks {

	private MariadbTestServer mariadb;

	@Override
	String startServer() {
		this.mariadb = MariadbTestServer.start("--max-connections=12");
		return this.mariadb.url();
	}

	@Override
	void stopServer() {
		this.mariadb.close();
	}

	@Override
	String platform() {
		return "mysql";
	}

	// ER_CON_COUNT_ERROR: "Too many connections".
	@Override
	boolean full(SQLException refusal) {
		return refusal.getErrorCode() == 1040 || String.valueOf(refusal.getMessage()).contains("Too many connections");
	}

}
