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

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * The JDBC lease host beside the application's own use of H2.
 *
 * @author Lease contributors
 */
class H2JdbcLeaseHostConnectionTests extends JdbcLeaseHostConnectionScenarios {

	private final DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(),
			"jdbc:h2:mem:connection-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");

	@Override
	protected DataSource dataSource() {
		return this.dataSource;
	}

}
