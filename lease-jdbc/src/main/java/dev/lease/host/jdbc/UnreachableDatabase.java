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

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.datasource.AbstractDriverBasedDataSource;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;
import org.springframework.transaction.CannotCreateTransactionException;

import dev.lease.LeaseHostException;

/**
 * The report of a store call that failed because the database could not be reached: it
 * names the database by its JDBC URL, without credentials, and says what a user checks,
 * as the Redis host does. Whether the database was reached is Spring's translation of the
 * driver's or the pool's {@link SQLException}: a
 * {@link DataAccessResourceFailureException} from a connection (SQLState class 08,
 * {@link SQLNonTransientConnectionException}), or from getting one at all (refused, too
 * many clients, shutting down). A pool that timed out only because every connection was
 * in use, a refused password and every failure of a statement the database answered are
 * not reports of this kind.
 *
 * @author Lease contributors
 */
final class UnreachableDatabase {

	/** The Spring Boot properties that point an application at its database. */
	static final String DATASOURCE_SETTINGS = "spring.datasource.*";

	private static final SQLExceptionTranslator TRANSLATOR = new SQLExceptionSubclassTranslator();

	// Bounds a walk of a cause chain that a driver may have made circular.
	static final int MAXIMUM_CAUSES = 32;

	private UnreachableDatabase() {
	}

	// The report when the failure is one of an unreachable database, else null.
	// connecting: whether the failure was met getting a connection, outside Spring.
	static @Nullable LeaseHostException of(String database, String operation, Throwable failure, boolean connecting) {
		String message = message(database, failure, DATASOURCE_SETTINGS, connecting);
		return (message != null) ? new LeaseHostException(message + " (operation: " + operation + ")", failure) : null;
	}

	// "<database> is unreachable (<cause>): check ...", or null when the database was
	// reached. The cause is the deepest SQLException of the chain that Spring translates
	// as a failure of the resource, where that means the database was not reached: a
	// pool's timeout answers the failure of its last attempt to connect as its cause.
	static @Nullable String message(String database, Throwable failure, String settings, boolean connecting) {
		SQLException unreachable = null;
		boolean gettingConnection = connecting;
		Throwable link = failure;
		for (int i = 0; link != null && i < MAXIMUM_CAUSES; i++) {
			gettingConnection |= link instanceof CannotGetJdbcConnectionException
					|| link instanceof Transaction.NotConnected || link instanceof CannotCreateTransactionException;
			if (link instanceof SQLException sql && (gettingConnection || isConnection(sql))
					&& TRANSLATOR.translate("connect", null, sql) instanceof DataAccessResourceFailureException) {
				unreachable = sql;
			}
			link = (link.getCause() != link) ? link.getCause() : null;
		}
		if (unreachable == null) {
			return null;
		}
		String cause = (unreachable.getMessage() != null) ? unreachable.getMessage()
				: unreachable.getClass().getSimpleName();
		return database + " is unreachable (" + cause + "): check that it is running and that " + settings
				+ " points to it";
	}

	// JDBC's class of connection failures: a statement on a connection the database
	// dropped, not a database that answered with a resource of its own exhausted.
	private static boolean isConnection(SQLException failure) {
		String state = failure.getSQLState();
		return failure instanceof SQLNonTransientConnectionException || (state != null && state.startsWith("08"));
	}

	// The database the data source points to, for a report made before the database
	// answered: "The database at <URL>", from a Hikari pool or a driver-based data
	// source, else named by the data source's type.
	static String name(DataSource dataSource) {
		return "The database " + address(dataSource);
	}

	// The database as it answered, by its metadata's URL where it gave one.
	static String name(JdbcLeaseDialect dialect, @Nullable String url, DataSource dataSource) {
		return dialect.displayName() + " " + ((url != null) ? "at " + withoutCredentials(url) : address(dataSource));
	}

	private static String address(DataSource dataSource) {
		String url = (dataSource instanceof AbstractDriverBasedDataSource driverBased) ? driverBased.getUrl()
				: ListenConnections.HIKARI_PRESENT ? ListenConnections.Hikari.url(dataSource) : null;
		return (url != null) ? "at " + withoutCredentials(url) : "of " + dataSource.getClass().getName();
	}

	// A URL's parameters ("?user=...&password=...", H2's ";PASSWORD=...") and user
	// information ("//user:password@host") are left out: a report is logged, and a
	// parameter may hold a password under any name.
	static String withoutCredentials(String url) {
		String address = url.split("[?;]", 2)[0];
		int at = address.lastIndexOf('@');
		if (at < 0) {
			return address;
		}
		int authority = address.indexOf("//");
		if (authority >= 0 && authority < at) {
			return address.substring(0, authority + 2) + address.substring(at + 1);
		}
		// Oracle's "thin:user/password@host" keeps its '@'.
		return address.substring(0, address.lastIndexOf(':', at) + 1) + address.substring(at);
	}

}
