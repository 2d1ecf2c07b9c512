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

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.datasource.AbstractDriverBasedDataSource;
import org.springframework.util.ClassUtils;

/**
 * Where the one {@code LISTEN} connection of a {@link JdbcLeaseHost} comes from: never
 * the application's pool when that can be helped, since a pool counts a connection held
 * for the life of the application as a leak, and runs one short. In order: the listen
 * data source given to the host's builder; for a Hikari pool configured with a JDBC URL
 * (Spring Boot's default), a connection opened with the pool's URL, driver, user,
 * password and data source properties, or with the data source the pool wraps; a data
 * source that pools nothing; and, last, a connection borrowed from the pool, with a
 * warning.
 *
 * @author Lease contributors
 */
@FunctionalInterface
interface ListenConnections {

	/** Whether Hikari is on the class path, so that {@link Hikari} may be used. */
	boolean HIKARI_PRESENT = ClassUtils.isPresent("com.zaxxer.hikari.HikariDataSource",
			ListenConnections.class.getClassLoader());

	Connection open() throws SQLException;

	static ListenConnections of(DataSource dataSource, @Nullable DataSource listenDataSource) {
		ListenConnections outside = outsidePool(dataSource, listenDataSource);
		if (outside != null) {
			return outside;
		}
		LogFactory.getLog(PostgresqlNotificationListener.class)
			.warn("The LISTEN connection of the JDBC lease host is borrowed from the application's data source ("
					+ dataSource.getClass().getName() + ") for as long as the host runs: a pool counts it in use, and"
					+ " may report it as a leak. Give the host a data source of its own for it"
					+ " (lease.jdbc.listen-url, or JdbcLeaseHost.Builder#listenDataSource)");
		return dataSource::getConnection;
	}

	// The connections opened outside the application's pool, in the order above, or null
	// when only the pool can lend one.
	static @Nullable ListenConnections outsidePool(DataSource dataSource, @Nullable DataSource listenDataSource) {
		if (listenDataSource != null) {
			return listenDataSource::getConnection;
		}
		ListenConnections hikari = HIKARI_PRESENT ? Hikari.outside(dataSource) : null;
		if (hikari != null) {
			return hikari;
		}
		if (dataSource instanceof AbstractDriverBasedDataSource
				|| dataSource.getClass().getName().equals("org.postgresql.ds.PGSimpleDataSource")) {
			return dataSource::getConnection;
		}
		return null;
	}

	/**
	 * A Hikari pool's settings and connections, read only when Hikari is on the class
	 * path ({@link #HIKARI_PRESENT}).
	 */
	final class Hikari {

		private Hikari() {
		}

		// The pool, also where the data source wraps it.
		static @Nullable HikariDataSource pool(DataSource dataSource) {
			try {
				return dataSource.isWrapperFor(HikariDataSource.class) ? dataSource.unwrap(HikariDataSource.class)
						: null;
			}
			catch (SQLException ex) {
				return null;
			}
		}

		// A pool's URL, for a report that names the database.
		static @Nullable String url(DataSource dataSource) {
			HikariDataSource pool = pool(dataSource);
			return (pool != null) ? pool.getJdbcUrl() : null;
		}

		// A connection within a timeout of the call's own (AnswerDeadline). Only the pool
		// itself: a data source that wraps it (tracing, metrics) is asked as it is, so
		// that what it adds is not bypassed.
		static @Nullable Connection connection(DataSource dataSource, long timeoutMillis) throws SQLException {
			if (!(dataSource instanceof HikariDataSource hikariDataSource)) {
				return null;
			}
			// The pool, once started (a data source built from a configuration starts it
			// at once).
			Object pool = hikariDataSource.getHikariPoolMXBean();
			return (pool instanceof HikariPool hikari) ? hikari.getConnection(timeoutMillis) : null;
		}

		static @Nullable ListenConnections outside(DataSource dataSource) {
			HikariDataSource pool = pool(dataSource);
			if (pool == null) {
				return null;
			}
			String url = pool.getJdbcUrl();
			if (url != null) {
				String driverClassName = pool.getDriverClassName();
				Properties properties = new Properties();
				properties.putAll(pool.getDataSourceProperties());
				return () -> connect(url, driverClassName, properties, pool.getUsername(), pool.getPassword());
			}
			DataSource wrapped = pool.getDataSource();
			return (wrapped != null) ? wrapped::getConnection : null;
		}

		// Read the credentials at each connection, as the pool does: they may change.
		private static Connection connect(String url, @Nullable String driverClassName, Properties settings,
				@Nullable String user, @Nullable String password) throws SQLException {
			Properties properties = new Properties();
			properties.putAll(settings);
			if (user != null) {
				properties.setProperty("user", user);
			}
			if (password != null) {
				properties.setProperty("password", password);
			}
			Connection connection = driver(url, driverClassName).connect(url, properties);
			if (connection == null) {
				throw new SQLException("The JDBC driver does not accept the URL of the pool: " + url);
			}
			return connection;
		}

		private static Driver driver(String url, @Nullable String driverClassName) throws SQLException {
			if (driverClassName == null) {
				return DriverManager.getDriver(url);
			}
			try {
				return (Driver) ClassUtils.forName(driverClassName, null).getDeclaredConstructor().newInstance();
			}
			catch (ReflectiveOperationException | LinkageError ex) {
				throw new SQLException("Could not load the JDBC driver " + driverClassName, ex);
			}
		}

	}

}
