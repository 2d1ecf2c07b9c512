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

import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutionException;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.h2.tools.Server;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.host.HostThreads;
import dev.lease.host.Wakeups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Tests for the failure {@link JdbcLeaseHost} reports when its database cannot be
 * reached: the message names the database by its URL, without credentials, and what to
 * check, so that a user can act on it; a database that answers keeps its own report.
 *
 * @author Lease contributors
 */
class JdbcUnreachableTests {

	private static final String CHECK = "check that it is running and that spring.datasource.* points to it";

	private final LeaseKey key = LeaseKey.of("key-" + UUID.randomUUID());

	private final LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());

	@Test
	@DisplayName("Host: failures: every operation on a PostgreSQL that is not running, through a Hikari pool that times out, names its URL and what to check")
	void everyOperationOnAnUnreachablePostgresqlThroughAPoolNamesItsUrlAndWhatToCheck() throws IOException {
		int port = closedPort();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + port + "/test?user=postgres&password=secret");
		config.setConnectionTimeout(1000);
		// the pool starts without the database, so that a connection times out in the
		// pool
		config.setInitializationFailTimeout(-1);
		try (HikariDataSource pool = new HikariDataSource(config);
				JdbcLeaseHost host = JdbcLeaseHost.builder(pool).cleanupInterval(Duration.ZERO).build()) {
			String database = "The database at jdbc:postgresql://127.0.0.1:" + port + "/test is unreachable (";
			String refused = "Connection to 127.0.0.1:" + port + " refused";
			for (ThrowingCallable call : new ThrowingCallable[] {
					() -> host.tryTake(this.key, this.holder, Duration.ofSeconds(5)),
					() -> host.take(this.key, this.holder, Duration.ofSeconds(5)),
					() -> host.remaining(this.key, this.holder), () -> host.release(this.key, this.holder),
					() -> host.grants(null, 10), () -> host.grant(this.key), host::platform }) {
				assertThatExceptionOfType(LeaseHostException.class).isThrownBy(call)
					.withMessageStartingWith(database)
					.withMessageContaining(refused)
					.withMessageContaining(CHECK)
					.withMessageNotContaining("secret")
					.withMessageNotContaining("user=");
			}
			assertThat(host.async().tryTake(this.key, this.holder, Duration.ofSeconds(5)))
				.failsWithin(Duration.ofSeconds(30))
				.withThrowableOfType(ExecutionException.class)
				.havingCause()
				.isInstanceOf(LeaseHostException.class)
				.withMessageStartingWith(database)
				.withMessageContaining(CHECK);
		}
	}

	@Test
	@DisplayName("Host: failures: a MariaDB that is not running, through a data source that pools nothing, is named by its URL")
	void callToAnUnreachableMariaDbNamesItsUrlAndWhatToCheck() throws IOException {
		int port = closedPort();
		SimpleDriverDataSource dataSource = new SimpleDriverDataSource(new org.mariadb.jdbc.Driver(),
				"jdbc:mariadb://127.0.0.1:" + port + "/test?user=root&connectTimeout=2000");
		try (JdbcLeaseHost host = JdbcLeaseHost.builder(dataSource).cleanupInterval(Duration.ZERO).build()) {
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.tryTake(this.key, this.holder, Duration.ofSeconds(5)))
				.withMessageStartingWith("The database at jdbc:mariadb://127.0.0.1:" + port + "/test is unreachable (")
				.withMessageContaining(CHECK);
		}
	}

	@Test
	@DisplayName("Host: failures: a host closed before its database answered never starts; each call says it is closed")
	void hostClosedBeforeItStartedNeverStarts() throws IOException {
		int port = closedPort();
		SimpleDriverDataSource dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(),
				"jdbc:postgresql://127.0.0.1:" + port + "/test");
		JdbcLeaseHost host = JdbcLeaseHost.builder(dataSource).build();
		host.close();
		for (ThrowingCallable call : new ThrowingCallable[] {
				() -> host.tryTake(this.key, this.holder, Duration.ofSeconds(5)), host::platform, host::protocol }) {
			assertThatExceptionOfType(LeaseHostException.class).isThrownBy(call)
				.withMessage("The JDBC lease host is closed");
		}
	}

	@Test
	@DisplayName("Host: failures: a database that answered at start and then stops is named as its metadata named it")
	void callToADatabaseThatStoppedAfterTheStartNamesItAsItsMetadataDid() throws IOException, SQLException {
		int port = closedPort();
		Server server = Server.createTcpServer("-tcpPort", Integer.toString(port), "-ifNotExists").start();
		String url = "jdbc:h2:tcp://127.0.0.1:" + port + "/mem:unreachable-" + UUID.randomUUID()
				+ ";DB_CLOSE_DELAY=-1;PASSWORD=secret";
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setUsername("sa");
		config.setConnectionTimeout(1000);
		try (HikariDataSource pool = new HikariDataSource(config);
				JdbcLeaseHost host = JdbcLeaseHost.builder(pool).cleanupInterval(Duration.ZERO).build()) {
			assertThat(host.platform()).isEqualTo("h2");
			server.stop();
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.tryTake(this.key, this.holder, Duration.ofSeconds(5)))
				.withMessageStartingWith("H2 at jdbc:h2:tcp://127.0.0.1:" + port + "/mem:unreachable-")
				.withMessageContaining(" is unreachable (")
				.withMessageContaining(CHECK)
				.withMessageContaining("(operation: ")
				.withMessageNotContaining("secret");
		}
		finally {
			server.stop();
		}
	}

	@Test
	@DisplayName("Host: failures: a database that answers keeps its own report, and so does a pool whose every connection is in use")
	void failuresOfADatabaseThatAnswersAreNotReportedAsUnreachable() throws SQLException {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:h2:mem:answering-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		config.setMaximumPoolSize(1);
		config.setConnectionTimeout(250);
		try (HikariDataSource pool = new HikariDataSource(config);
				JdbcLeaseHost host = JdbcLeaseHost.builder(pool).cleanupInterval(Duration.ZERO).build()) {
			// no tables: the database answers that they are missing
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.tryTake(this.key, this.holder, Duration.ofSeconds(5)))
				.withMessageStartingWith("Could not ")
				.withMessageContaining(" on H2: ")
				.withMessageNotContaining("is unreachable");
			try (Connection busy = pool.getConnection()) {
				assertThatExceptionOfType(LeaseHostException.class)
					.isThrownBy(() -> host.tryTake(this.key, this.holder, Duration.ofSeconds(5)))
					.withMessageStartingWith("Could not ")
					.withMessageContaining("Connection is not available")
					.withMessageNotContaining("is unreachable");
			}
		}
	}

	@Test
	@DisplayName("Host: failures: the warning of a LISTEN connection that cannot reach its database names it and its setting")
	void listenConnectionThatCannotReachItsDatabaseWarnsWithItsUrlAndWhatToCheck() throws IOException {
		int port = closedPort();
		DataSource listen = new DriverManagerDataSource("jdbc:postgresql://127.0.0.1:" + port + "/test");
		ListenConnections connections = ListenConnections.of(listen, listen);
		PostgresqlNotificationListener listener = new PostgresqlNotificationListener(connections, "lease_keys",
				new Wakeups<>(), new PickedUpWaiters(), "DELETE FROM LEASE_WAITERS WHERE ID = ?",
				UnreachableDatabase.name(listen), "lease.jdbc.listen-url", new HostThreads("test", null, null));
		Throwable failure = catchThrowable(connections::open);
		assertThat(failure).isInstanceOf(SQLException.class);
		assertThat(listener.interrupted((Exception) failure))
			.startsWith(
					"Lease notifications on channel 'lease_keys' are interrupted; waiters poll until they are back: "
							+ "The database at jdbc:postgresql://127.0.0.1:" + port + "/test is unreachable (")
			.contains("Connection to 127.0.0.1:" + port + " refused")
			.endsWith("check that it is running and that lease.jdbc.listen-url points to it");
		assertThat(listener.interrupted(new SQLException("canceling statement due to user request", "57014")))
			.endsWith("waiters poll until they are back");
	}

	@Test
	void urlsAreNamedWithoutCredentials() {
		assertThat(
				UnreachableDatabase.withoutCredentials("jdbc:postgresql://db.example:5432/orders?user=app&password=s"))
			.isEqualTo("jdbc:postgresql://db.example:5432/orders");
		assertThat(UnreachableDatabase.withoutCredentials("jdbc:mysql://app:s@db.example:3306/orders"))
			.isEqualTo("jdbc:mysql://db.example:3306/orders");
		assertThat(UnreachableDatabase.withoutCredentials("jdbc:h2:tcp://localhost/~/orders;USER=sa;PASSWORD=s"))
			.isEqualTo("jdbc:h2:tcp://localhost/~/orders");
		assertThat(UnreachableDatabase.withoutCredentials("jdbc:oracle:thin:app/s@db.example:1521:orders"))
			.isEqualTo("jdbc:oracle:thin:@db.example:1521:orders");
		assertThat(UnreachableDatabase.withoutCredentials("jdbc:h2:mem:orders")).isEqualTo("jdbc:h2:mem:orders");
	}

	private static int closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
