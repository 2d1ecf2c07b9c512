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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of the start the JDBC host keeps for each grant (Grants 8, {@code GRANTED_AT}),
 * on rows the kit does not make: a row a passed grant left behind, which each database's
 * take overwrites in its own statement, and a row that does not say when its grant began,
 * as an instance of an earlier release writes it.
 *
 * @author Lease contributors
 */
class JdbcGrantStartIntegrationTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private final String prefix = "START_"
			+ UUID.randomUUID().toString().replace("-", "").substring(0, 12).toUpperCase(Locale.ROOT) + "_";

	private HikariDataSource dataSource;

	private JdbcTemplate jdbc;

	private JdbcLeaseHost host;

	@AfterEach
	void dropTables() {
		this.host.close();
		for (String table : List.of("WAITERS", "KEYS", "PROTOCOL")) {
			this.jdbc.execute("DROP TABLE IF EXISTS " + this.prefix + table);
		}
		this.dataSource.close();
	}

	// On PostgreSQL the conflict path of the one-statement take, on MySQL and MariaDB the
	// duplicate-key path, on H2 the transaction: each dates the start from the take,
	// not from the row's earlier grant.
	@ParameterizedTest
	@ValueSource(strings = { "postgresql", "mysql", "h2" })
	void aTakeOverAPassedGrantsRowBeganWhenItWasTaken(String platform) {
		start(platform);
		LeaseKey key = LeaseKey.of("passed");
		long now = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
		this.jdbc.update(
				"INSERT INTO " + this.prefix + "KEYS (LEASE_KEY, HOLDER, EXPIRES_AT, LATEST, QUEUED,"
						+ " ARRIVALS, GRANTED_AT) VALUES (?, ?, ?, ?, 0, 0, ?)",
				key.bytes(), LeaseHolder.of("before").bytes(), now - 60_000_000L, now - 90_000_000L, now - 90_000_000L);
		Lease lease = ((Taken) this.host.tryTake(key, LeaseHolder.of("after"), TERM)).lease();
		Instant start = lease.expiresAt().minus(TERM);
		assertThat(this.host.grantedAt(lease)).contains(start);
		assertThat(page().grantedAt(lease)).contains(start);
	}

	@ParameterizedTest
	@ValueSource(strings = { "postgresql", "mysql", "h2" })
	void aRowThatDoesNotSayWhenItsGrantBeganReadsAsStartUnknown(String platform) {
		start(platform);
		LeaseKey key = LeaseKey.of("unknown");
		long now = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
		this.jdbc.update(
				"INSERT INTO " + this.prefix + "KEYS (LEASE_KEY, HOLDER, EXPIRES_AT, LATEST, QUEUED,"
						+ " ARRIVALS) VALUES (?, ?, ?, ?, 0, 0)",
				key.bytes(), LeaseHolder.of("older").bytes(), now + 600_000_000L, now);
		Lease lease = this.host.grant(key).orElseThrow();
		assertThat(this.host.grantedAt(lease)).isEmpty();
		GrantsPage page = page();
		assertThat(page.grants()).contains(lease);
		assertThat(page.grantedAt(lease)).isEmpty();
	}

	private GrantsPage page() {
		// the test's own tables hold its one key
		return this.host.grants(null, 100);
	}

	private void start(String platform) {
		String url = switch (platform) {
			case "postgresql" -> JdbcTestServers.postgresUrl();
			case "mysql" -> JdbcTestServers.mariadbUrl();
			default -> JdbcTestServers.h2Url();
		};
		this.dataSource = JdbcTestServers.withSchema(JdbcTestServers.pool(url, platform), platform, this.prefix);
		this.jdbc = new JdbcTemplate(this.dataSource);
		this.host = JdbcLeaseHost.builder(this.dataSource).tablePrefix(this.prefix).notifications(false).build();
	}

}
