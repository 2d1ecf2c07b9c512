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

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

import dev.lease.LeaseHost;
import dev.lease.tck.LeaseHostConformanceKit;

/**
 * The conformance kit against a {@link JdbcLeaseHost} on one database, which each
 * subclass names.
 *
 * @author Lease contributors
 */
@TestInstance(Lifecycle.PER_CLASS)
abstract class JdbcLeaseHostConformance extends LeaseHostConformanceKit {

	private HikariDataSource dataSource;

	private JdbcLeaseHost host;

	// A pool on the database, with the shipped schema loaded.
	abstract HikariDataSource dataSource();

	@BeforeAll
	void startHost() {
		this.dataSource = dataSource();
		this.host = new JdbcLeaseHost(this.dataSource);
	}

	@AfterAll
	void stopHost() {
		if (this.host != null) {
			this.host.close();
		}
		if (this.dataSource != null) {
			this.dataSource.close();
		}
	}

	@Override
	protected LeaseHost host() {
		return this.host;
	}

	@Override
	protected boolean keepsArrivals() {
		return true;
	}

	@Override
	protected boolean keepsGrantStarts() {
		return true;
	}

	@Override
	protected Duration resolution() {
		return Duration.ofNanos(1000);
	}

}
