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
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.host.IncompatibleStoreProtocolException;
import dev.lease.host.StoreProtocol;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the protocol record of a JDBC host's tables, {@code <prefix>PROTOCOL}: a
 * start records the protocol it speaks, works beside a newer protocol that works beside
 * it (the next release in a rolling deploy), refuses one it cannot work beside, older or
 * newer, and starts without a record on tables of an earlier release that lack the table.
 * Releases before this one recorded nothing; their instances are stood for by a row
 * written by hand. Each test uses a table prefix of its own, on H2, PostgreSQL and
 * MariaDB.
 *
 * @author Lease contributors
 */
class JdbcProtocolRecordIntegrationTests {

	private final String prefix = "PROTO_"
			+ UUID.randomUUID().toString().replace("-", "").substring(0, 12).toUpperCase(Locale.ROOT) + "_";

	private HikariDataSource dataSource;

	private JdbcTemplate jdbc;

	private JdbcLeaseHost host;

	@AfterEach
	void dropTables() {
		if (this.host != null) {
			this.host.close();
		}
		for (String table : List.of("WAITERS", "KEYS", "PROTOCOL")) {
			this.jdbc.execute("DROP TABLE IF EXISTS " + this.prefix + table);
		}
		this.dataSource.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "h2", "postgresql", "mysql" })
	void startRecordsTheProtocolItSpeaks(String platform) {
		tables(platform);
		this.host = build();
		assertThat(row()).containsExactly(2, 2);
		assertThat(this.host.protocol().recorded()).isEqualTo(new StoreProtocol(2, 2));
	}

	@ParameterizedTest
	@ValueSource(strings = { "h2", "postgresql", "mysql" })
	void startBesideAnOlderProtocolItCannotWorkBesideFails(String platform) {
		tables(platform);
		stamp(1, 1);
		assertThatExceptionOfType(IncompatibleStoreProtocolException.class).isThrownBy(this::build)
			.withMessageContaining("table " + this.prefix + "PROTOCOL records protocol 1 (works beside 1 and later)")
			.withMessageContaining("this instance speaks protocol 2 (works beside 2 and later)")
			.withMessageContaining("DELETE FROM " + this.prefix + "PROTOCOL");
		assertThat(row()).containsExactly(1, 1);
	}

	@ParameterizedTest
	@ValueSource(strings = { "h2", "postgresql", "mysql" })
	void startBesideANewerProtocolThatWorksBesideItWorksAndKeepsTheRecord(String platform) {
		tables(platform);
		stamp(3, 2);
		this.host = build();
		assertThat(this.host.tryTake(LeaseKey.of("k"), LeaseHolder.of("h"), Duration.ofSeconds(5)))
			.isInstanceOf(Taken.class);
		assertThat(row()).containsExactly(3, 2);
		assertThat(this.host.protocol().compatible()).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "h2", "postgresql", "mysql" })
	void startBesideANewerProtocolThatDoesNotWorkBesideItFails(String platform) {
		tables(platform);
		stamp(3, 3);
		assertThatExceptionOfType(IncompatibleStoreProtocolException.class).isThrownBy(this::build)
			.withMessageContaining("records protocol 3 (works beside 3 and later)")
			.withMessageContaining("deploy that release here too");
		assertThat(row()).containsExactly(3, 3);
	}

	@ParameterizedTest
	@ValueSource(strings = { "h2", "postgresql", "mysql" })
	void aProtocolRecordedAfterTheStartIsReadAgain(String platform) {
		tables(platform);
		this.host = build();
		this.jdbc.update("UPDATE " + this.prefix + "PROTOCOL SET PROTOCOL_VERSION = 4, WORKS_BESIDE_SINCE = 4");
		assertThat(this.host.protocol().recorded()).isEqualTo(new StoreProtocol(4, 4));
		assertThat(this.host.protocol().compatible()).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "h2", "postgresql", "mysql" })
	void tablesOfAnEarlierReleaseWithoutTheRecordStartAndRecordNothing(String platform) {
		tables(platform, "migration/" + platform + "/V1__lease_tables.sql");
		tables(platform, "migration/" + platform + "/V2__lease_waiters_indexes.sql");
		// The columns of the later migrations, which this release reads on every take,
		// without the protocol table: a migration tool that has not run V3 yet.
		tables(platform, "migration/" + platform + "/V4__lease_waiters_arrived_at.sql");
		tables(platform, "migration/" + platform + "/V5__lease_keys_granted_at.sql");
		this.host = build();
		assertThat(this.host.tryTake(LeaseKey.of("k"), LeaseHolder.of("h"), Duration.ofSeconds(5)))
			.isInstanceOf(Taken.class);
		assertThat(this.host.protocol().recorded()).isNull();
		tables(platform, "migration/" + platform + "/V3__lease_protocol.sql");
		JdbcLeaseHost second = build();
		second.close();
		assertThat(row()).containsExactly(2, 2);
	}

	private JdbcLeaseHost build() {
		return JdbcLeaseHost.builder(this.dataSource).tablePrefix(this.prefix).notifications(false).build();
	}

	// Runs the given shipped scripts, else all of them, under this test's table prefix,
	// as the schema initializer does.
	private void tables(String platform, String... scripts) {
		if (this.dataSource == null) {
			String url = switch (platform) {
				case "h2" -> JdbcTestServers.h2Url();
				case "postgresql" -> JdbcTestServers.postgresUrl();
				default -> JdbcTestServers.mariadbUrl();
			};
			this.dataSource = JdbcTestServers.pool(url, platform);
			this.jdbc = new JdbcTemplate(this.dataSource);
		}
		if (scripts.length == 0) {
			JdbcTestServers.withSchema(this.dataSource, platform, this.prefix);
		}
		for (String script : scripts) {
			new ResourceDatabasePopulator(
					JdbcTestServers.prefixed(new ClassPathResource("dev/lease/host/jdbc/" + script), this.prefix))
				.execute(this.dataSource);
		}
	}

	private void stamp(int version, int since) {
		this.jdbc.update(
				"INSERT INTO " + this.prefix
						+ "PROTOCOL (RECORD_ID, PROTOCOL_VERSION, WORKS_BESIDE_SINCE) VALUES (1, ?, ?)",
				version, since);
	}

	private List<Integer> row() {
		return this.jdbc.queryForObject(
				"SELECT PROTOCOL_VERSION, WORKS_BESIDE_SINCE FROM " + this.prefix + "PROTOCOL WHERE RECORD_ID = 1",
				(rs, row) -> List.of(rs.getInt(1), rs.getInt(2)));
	}

}
