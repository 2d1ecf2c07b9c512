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
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

import dev.lease.LeaseHost;
import dev.lease.tck.history.LeaseHostScheduleProperties;

/**
 * The schedule property on one database, through a {@link JdbcLeaseHost} on a pool with
 * the shipped schema.
 *
 * @author Lease contributors
 */
abstract class JdbcLeaseHostScheduleProperties extends LeaseHostScheduleProperties {

	private HikariDataSource dataSource;

	private JdbcLeaseHost host;

	// A pool on the database, with the shipped schema loaded.
	abstract HikariDataSource dataSource();

	@BeforeProperty
	void startHost() {
		this.dataSource = dataSource();
		this.host = new JdbcLeaseHost(this.dataSource);
	}

	@AfterProperty
	void stopHost() {
		this.host.close();
		this.dataSource.close();
	}

	@Override
	protected LeaseHost host() {
		return this.host;
	}

}
