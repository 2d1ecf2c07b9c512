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
import java.io.UncheckedIOException;
import java.util.Map;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import dev.lease.test.support.JdbcTestServers;

/**
 * {@link JdbcSilentDatabaseChecks} on an embedded PostgreSQL of the test's own.
 *
 * @author Lease contributors
 */
class PostgresqlSilentDatabaseIntegrationTests extends JdbcSilentDatabaseChecks {

	private EmbeddedPostgres postgres;

	@Override
	int startServer() {
		this.postgres = JdbcTestServers.ownPostgres(Map.of());
		return this.postgres.getPort();
	}

	@Override
	void stopServer() {
		EmbeddedPostgres postgres = this.postgres;
		this.postgres = null;
		if (postgres != null) {
			try {
				postgres.close();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}

	@Override
	String url(int port) {
		return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
	}

	@Override
	String platform() {
		return "postgresql";
	}

}
