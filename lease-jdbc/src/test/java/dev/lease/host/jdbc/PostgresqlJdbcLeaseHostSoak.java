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
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.LeaseKey;
import dev.lease.tck.soak.SoakRun.SoakReport;
import dev.lease.tck.soak.SoakSettings;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Soak of {@link JdbcLeaseHost} on PostgreSQL: run by the {@code soak} profile only.
 *
 * @author Lease contributors
 */
class PostgresqlJdbcLeaseHostSoak {

	@Test
	@DisplayName("Invariant 1: a soak of mixed operations never has two holders inside one key and leaves no row behind")
	void soak() throws Exception {
		try (HikariDataSource dataSource = JdbcTestServers.postgres();
				JdbcLeaseHost host = new JdbcLeaseHost(dataSource)) {
			SoakReport report = SoakSettings.run().run(host);
			System.out.println(report.line("postgresql"));
			assertThat(report.overlaps()).isZero();
			assertThat(report.heapAfter() - report.heapBefore()).as("heap growth, bytes").isLessThan(32L << 20);
			JdbcTemplate jdbc = new JdbcTemplate(dataSource);
			await("no row left for the soak's keys").atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(rowsFor(jdbc, report)).isZero());
		}
	}

	private static int rowsFor(JdbcTemplate jdbc, SoakReport report) {
		int rows = 0;
		for (LeaseKey key : report.keys()) {
			rows += jdbc.queryForObject("select count(*) from LEASE_KEYS where LEASE_KEY = ?", Integer.class,
					key.bytes());
			rows += jdbc.queryForObject("select count(*) from LEASE_WAITERS where LEASE_KEY = ?", Integer.class,
					key.bytes());
		}
		return rows;
	}

}
