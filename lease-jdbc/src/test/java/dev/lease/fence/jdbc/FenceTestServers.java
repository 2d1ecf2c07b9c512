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

import java.io.IOException;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The databases the fence tests write to: the running ones named by
 * {@code LEASE_TEST_POSTGRES_URL} and {@code LEASE_TEST_MARIADB_URL}, else an embedded
 * PostgreSQL started here. MariaDB has no embedded form: without its variable its tests
 * are skipped, naming it.
 *
 * @author Lease contributors
 */
final class FenceTestServers {

	static final String POSTGRES_URL = "LEASE_TEST_POSTGRES_URL";

	static final String MARIADB_URL = "LEASE_TEST_MARIADB_URL";

	private FenceTestServers() {
	}

	static Database postgres() throws IOException {
		String url = System.getenv(POSTGRES_URL);
		if (url != null && !url.isBlank()) {
			return new Database(new SimpleDriverDataSource(new org.postgresql.Driver(), url), null);
		}
		EmbeddedPostgres postgres = EmbeddedPostgres.start();
		return new Database(postgres.getPostgresDatabase(), postgres::close);
	}

	static Database mariaDb() {
		String url = System.getenv(MARIADB_URL);
		assumeThat(url)
			.as("MariaDB tests need " + MARIADB_URL + " (e.g. jdbc:mariadb://127.0.0.1:3306/test?user=root);"
					+ " MariaDB has no embedded form, so they are skipped without it")
			.isNotBlank();
		try {
			return new Database(new SimpleDriverDataSource(new org.mariadb.jdbc.Driver(), url), null);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Something to stop when the tests are done.
	 */
	@FunctionalInterface
	interface Stop {

		void stop() throws IOException;

	}

	/**
	 * A database to write to, and how to stop it when it was started here.
	 */
	record Database(DataSource dataSource, @Nullable Stop stop) implements AutoCloseable {

		@Override
		public void close() throws IOException {
			if (this.stop != null) {
				this.stop.stop();
			}
		}

	}

}
