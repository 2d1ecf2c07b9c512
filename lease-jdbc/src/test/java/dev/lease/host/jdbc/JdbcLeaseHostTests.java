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

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.time.Duration;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link JdbcLeaseHost}: configuration, start-up errors and the shipped schema
 * scripts, on H2 in memory.
 *
 * @author Lease contributors
 */
class JdbcLeaseHostTests {

	@ParameterizedTest(name = "prefix {0}")
	@ValueSource(strings = { "LEASE_; DROP TABLE LEASE_KEYS; --", "lease keys", "1LEASE_", "", "LEASE\"_",
			"A_PREFIX_MUCH_LONGER_THAN_ANY_DATABASE_LIKES_TO_SEE_" })
	@DisplayName("A table prefix that is not an SQL identifier is refused at start-up, naming the rule")
	void tablePrefixThatIsNotAnIdentifierIsRefused(String prefix) {
		try (HikariDataSource dataSource = JdbcTestServers.pool(JdbcTestServers.h2Url(), "h2")) {
			assertThatIllegalArgumentException().isThrownBy(() -> JdbcLeaseHost.builder(dataSource).tablePrefix(prefix))
				.withMessageContaining("'tablePrefix' must be an SQL identifier");
		}
	}

	@Test
	@DisplayName("A database the host does not support is a start-up error naming the supported ones")
	void unsupportedDatabaseIsRefusedNamingTheSupportedOnes() {
		DataSource oracle = dataSourceOf("Oracle");
		assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> new JdbcLeaseHost(oracle))
			.withMessageContaining("'Oracle' is not supported")
			.withMessageContaining("PostgreSQL, MySQL, MariaDB and H2");
	}

	@Test
	@DisplayName("The dialect is chosen from the connection's metadata")
	void platformIsReadFromTheConnectionsMetadata() {
		try (HikariDataSource dataSource = JdbcTestServers.pool(JdbcTestServers.h2Url(), "h2");
				JdbcLeaseHost host = new JdbcLeaseHost(dataSource)) {
			assertThat(host.platform()).isEqualTo("h2");
			assertThat(host.tablePrefix()).isEqualTo(JdbcLeaseHost.DEFAULT_TABLE_PREFIX);
		}
	}

	@Test
	@DisplayName("A host whose tables are missing fails with LeaseHostException, naming the database")
	void missingTablesAreAHostFailure() {
		try (HikariDataSource dataSource = JdbcTestServers.pool(JdbcTestServers.h2Url(), "h2");
				JdbcLeaseHost host = JdbcLeaseHost.builder(dataSource).tablePrefix("ABSENT_").build()) {
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.tryTake(LeaseKey.of("key"), LeaseHolder.of("holder"), Duration.ofSeconds(1)))
				.withMessageContaining("on H2");
		}
	}

	@ParameterizedTest(name = "platform {0}")
	@ValueSource(strings = { "postgresql", "mysql", "h2" })
	@DisplayName("The jar ships the schema scripts, in version order, and a drop script per platform at the documented locations")
	void schemaScriptsAreShippedPerPlatform(String platform) {
		DefaultResourceLoader resources = new DefaultResourceLoader();
		assertThat(JdbcLeaseSchema.scripts(platform)).extracting(Resource::getFilename)
			.containsExactly("V1__lease_tables.sql", "V2__lease_waiters_indexes.sql", "V3__lease_protocol.sql",
					"V4__lease_waiters_arrived_at.sql", "V5__lease_keys_granted_at.sql");
		assertThat(resources.getResource(JdbcLeaseHost.DROP_SCHEMA_LOCATION.replace("@@platform@@", platform)).exists())
			.isTrue();
	}

	private static DataSource dataSourceOf(String product) {
		DatabaseMetaData metaData = (DatabaseMetaData) Proxy.newProxyInstance(JdbcLeaseHostTests.class.getClassLoader(),
				new Class<?>[] { DatabaseMetaData.class },
				(proxy, method, args) -> method.getName().equals("getDatabaseProductName") ? product : null);
		Connection connection = (Connection) Proxy.newProxyInstance(JdbcLeaseHostTests.class.getClassLoader(),
				new Class<?>[] { Connection.class },
				(proxy, method, args) -> method.getName().equals("getMetaData") ? metaData : null);
		return (DataSource) Proxy.newProxyInstance(JdbcLeaseHostTests.class.getClassLoader(),
				new Class<?>[] { DataSource.class },
				(proxy, method, args) -> method.getName().equals("getConnection") ? connection : null);
	}

}
