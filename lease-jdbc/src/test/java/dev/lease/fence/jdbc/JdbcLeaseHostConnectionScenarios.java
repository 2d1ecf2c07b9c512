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

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionTemplate;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.host.Micros;
import dev.lease.host.jdbc.DatabaseClock;
import dev.lease.host.jdbc.JdbcLeaseHost;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JDBC lease host beside the application's own use of its database: a call inside the
 * application's transaction on the same data source commits on a connection of the
 * host's, and the host grants by the same clock {@link FencedJdbcTemplate} checks fences
 * by.
 *
 * @author Lease contributors
 */
abstract class JdbcLeaseHostConnectionScenarios {

	private static final Duration TERM = Duration.ofMinutes(10);

	private @Nullable JdbcLeaseHost host;

	private final LeaseKey key = LeaseKey.of("connection-" + UUID.randomUUID());

	private final LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());

	protected abstract DataSource dataSource();

	@BeforeEach
	void createHost() {
		JdbcLeaseHost created = JdbcLeaseHost.builder(dataSource()).notifications(false).build();
		JdbcTestServers.withSchema(dataSource(), created.platform());
		this.host = created;
	}

	@AfterEach
	void closeHost() {
		if (this.host != null) {
			this.host.release(this.key, this.holder);
			this.host.close();
		}
	}

	@Test
	@DisplayName("Non-goal 6: a take inside the application's transaction on the same data source is committed at once"
			+ " on the host's own connection, and stays when that transaction rolls back")
	void takeInsideTheApplicationsTransactionIsTheHostsOwn() {
		TransactionTemplate application = new TransactionTemplate(new DataSourceTransactionManager(dataSource()));
		application.executeWithoutResult((status) -> {
			Connection applications = DataSourceUtils.getConnection(dataSource());
			int isolation = isolationOf(applications);
			assertThat(host().tryTake(this.key, this.holder, TERM)).isInstanceOf(Taken.class);
			assertThat(rowsSeenElsewhere()).as("rows of the key seen from another connection").isOne();
			assertThat(isolationOf(applications)).as("the application's isolation").isEqualTo(isolation);
			status.setRollbackOnly();
		});
		assertThat(host().remaining(this.key, this.holder)).isPresent();
	}

	@Test
	@DisplayName("Non-goal 6: a release inside the application's transaction on the same data source is not undone"
			+ " when that transaction rolls back")
	void releaseInsideTheApplicationsTransactionIsTheHostsOwn() {
		assertThat(host().tryTake(this.key, this.holder, TERM)).isInstanceOf(Taken.class);
		TransactionTemplate application = new TransactionTemplate(new DataSourceTransactionManager(dataSource()));
		application.executeWithoutResult((status) -> {
			assertThat(host().release(this.key, this.holder)).isInstanceOf(Released.class);
			assertThat(rowsSeenElsewhere()).as("rows of the key seen from another connection").isZero();
			status.setRollbackOnly();
		});
		assertThat(host().remaining(this.key, this.holder)).isEmpty();
	}

	@Test
	@DisplayName("Operation 10, Fence 4: the host grants by the database clock that FencedJdbcTemplate reads")
	void hostAndFenceReadOneClock() {
		DatabaseClock clock = DatabaseClock.of(dataSource());
		JdbcTemplate jdbc = new JdbcTemplate(dataSource());
		long before = clock.readMicros(jdbc);
		Taken taken = (Taken) host().tryTake(this.key, this.holder, TERM);
		long after = clock.readMicros(jdbc);
		long grantedAt = Micros.of(taken.lease().expiresAt()) - Micros.of(TERM);
		assertThat(grantedAt).as("the grant's reading of the clock, between two readings of the fence's")
			.isBetween(before, after);
	}

	private JdbcLeaseHost host() {
		assertThat(this.host).isNotNull();
		return this.host;
	}

	private static int isolationOf(Connection connection) {
		try {
			return connection.getTransactionIsolation();
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	// Counted on a connection of its own, outside any transaction of the test's.
	private int rowsSeenElsewhere() {
		try (Connection connection = dataSource().getConnection();
				PreparedStatement count = connection
					.prepareStatement("SELECT COUNT(*) FROM LEASE_KEYS WHERE LEASE_KEY = ? AND HOLDER IS NOT NULL")) {
			count.setBytes(1, this.key.bytes());
			try (ResultSet rows = count.executeQuery()) {
				rows.next();
				return rows.getInt(1);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
