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

import java.time.Duration;

import javax.sql.DataSource;

/**
 * {@link PostgresqlSilentDatabaseIntegrationTests} on a Tomcat JDBC pool, as Spring Boot
 * configures it when an application chooses it: each connection is checked before it is
 * lent with a validation query that has no timeout, and a borrower waits up to 30 s for a
 * connection. The host lends its waiters' connections by their instant whatever the pool,
 * so nothing is allowed on top of the margin.
 *
 * @author Lease contributors
 */
class PostgresqlTomcatPoolSilentDatabaseIntegrationTests extends PostgresqlSilentDatabaseIntegrationTests {

	@Override
	DataSource proxiedPool(String url) {
		org.apache.tomcat.jdbc.pool.DataSource pool = new org.apache.tomcat.jdbc.pool.DataSource();
		pool.setUrl(url);
		pool.setDriverClassName("org.postgresql.Driver");
		pool.setTestOnBorrow(true);
		pool.setValidationQuery("SELECT 1");
		return pool;
	}

	@Override
	void closeProxiedPool(DataSource pool) {
		((org.apache.tomcat.jdbc.pool.DataSource) pool).close();
	}

	@Override
	Duration lendingAllowance() {
		return Duration.ZERO;
	}

}
