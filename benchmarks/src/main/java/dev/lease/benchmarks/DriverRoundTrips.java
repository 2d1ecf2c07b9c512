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

package dev.lease.benchmarks;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

/**
 * A data source that tells a listener of every call that can reach the server, with its
 * time at the client: statements ({@code execute*}), commits and rollbacks, and changes
 * of auto-commit (on MariaDB each is a round trip of its own; PostgreSQL's driver sends
 * {@code BEGIN} with the next statement). Put under a pool, it also sees what the pool
 * sends. Every other call, {@code unwrap} included, reaches the wrapped data source, so a
 * host that opens a connection outside its pool still finds the pool.
 *
 * @author Lease contributors
 */
final class DriverRoundTrips {

	private DriverRoundTrips() {
	}

	static DataSource wrap(DataSource target, Listener listener) {
		return proxy(DataSource.class, target, (method, args, call) -> {
			Object result = call.call();
			return (result instanceof Connection connection) ? connection(connection, listener) : result;
		});
	}

	private static Connection connection(Connection target, Listener listener) {
		return proxy(Connection.class, target, (method, args, call) -> {
			Kind kind = switch (method.getName()) {
				case "commit", "rollback" -> Kind.TRANSACTION_END;
				case "setAutoCommit" ->
					(args != null && target.getAutoCommit() != (Boolean) args[0]) ? Kind.AUTO_COMMIT_CHANGE : null;
				default -> null;
			};
			Object result = (kind != null) ? timed(listener, kind, method.getName(), call) : call.call();
			String sql = (args != null && args.length > 0 && args[0] instanceof String text) ? text : "";
			if (result instanceof CallableStatement callable) {
				return statement(CallableStatement.class, callable, sql, listener);
			}
			if (result instanceof PreparedStatement prepared) {
				return statement(PreparedStatement.class, prepared, sql, listener);
			}
			if (result instanceof Statement statement) {
				return statement(Statement.class, statement, sql, listener);
			}
			return result;
		});
	}

	private static <T extends Statement> T statement(Class<T> type, T target, String preparedSql, Listener listener) {
		return proxy(type, target, (method, args, call) -> {
			if (!method.getName().startsWith("execute")) {
				return call.call();
			}
			String sql = (args != null && args.length > 0 && args[0] instanceof String text) ? text : preparedSql;
			return timed(listener, Kind.STATEMENT, sql, call);
		});
	}

	// Told even when the call fails: it was sent.
	private static Object timed(Listener listener, Kind kind, String text, Call call) throws Throwable {
		long start = System.nanoTime();
		try {
			return call.call();
		}
		finally {
			listener.sent(kind, text, start, System.nanoTime() - start);
		}
	}

	private static <T> T proxy(Class<T> type, T target, Handler handler) {
		InvocationHandler invocation = (proxy, method, args) -> handler.handle(method, args, () -> {
			try {
				return method.invoke(target, args);
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
		});
		return type
			.cast(Proxy.newProxyInstance(DriverRoundTrips.class.getClassLoader(), new Class<?>[] { type }, invocation));
	}

	/**
	 * What a round trip was.
	 */
	enum Kind {

		STATEMENT, TRANSACTION_END, AUTO_COMMIT_CHANGE

	}

	/**
	 * Told of each round trip, on the thread that made it.
	 */
	interface Listener {

		/**
		 * A round trip ended.
		 * @param kind what it was
		 * @param text the statement's SQL, or the connection method's name
		 * @param startNanos when it was sent, on {@code System.nanoTime()}
		 * @param nanos its time at the client
		 */
		void sent(Kind kind, String text, long startNanos, long nanos);

	}

	private interface Call {

		@Nullable Object call() throws Throwable;

	}

	private interface Handler {

		@Nullable Object handle(Method method, Object @Nullable [] args, Call call) throws Throwable;

	}

}
