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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

/**
 * The driver's data source, under a pool, with every call that can reach the server
 * counted: statements ({@code execute*}), commits and rollbacks, and changes of
 * auto-commit. Below the pool, so that what the pool itself sends (a rollback or reset
 * when a connection comes back) is counted too.
 *
 * @author Lease contributors
 */
final class DriverCalls {

	static final String STATEMENTS = "statements";

	static final String TRANSACTION_ENDS = "commits/rollbacks";

	static final String AUTO_COMMIT_CHANGES = "auto-commit changes";

	private final LongAdder statements = new LongAdder();

	private final LongAdder transactionEnds = new LongAdder();

	private final LongAdder autoCommitChanges = new LongAdder();

	private final DataSource dataSource;

	DriverCalls(DataSource driver) {
		this.dataSource = proxy(DataSource.class, driver,
				(method, args, result) -> (result instanceof Connection connection)
						? proxy(Connection.class, connection, this::connectionCall) : result);
	}

	DataSource dataSource() {
		return this.dataSource;
	}

	Map<String, Long> counters() {
		Map<String, Long> counters = new LinkedHashMap<>();
		counters.put(STATEMENTS, this.statements.sum());
		counters.put(TRANSACTION_ENDS, this.transactionEnds.sum());
		counters.put(AUTO_COMMIT_CHANGES, this.autoCommitChanges.sum());
		return counters;
	}

	private Object connectionCall(Method method, Object @Nullable [] args, Object result) {
		if (result instanceof CallableStatement callable) {
			return counting(CallableStatement.class, callable);
		}
		if (result instanceof PreparedStatement prepared) {
			return counting(PreparedStatement.class, prepared);
		}
		if (result instanceof Statement statement) {
			return counting(Statement.class, statement);
		}
		return result;
	}

	private <T extends Statement> T counting(Class<T> type, T target) {
		return proxy(type, target, (method, args, result) -> {
			if (method.getName().startsWith("execute")) {
				this.statements.increment();
			}
			return result;
		});
	}

	private <T> T proxy(Class<T> type, T target, Wrapping wrapping) {
		InvocationHandler handler = (proxy, method, args) -> {
			if (target instanceof Connection connection) {
				countTransactionCall(connection, method, args);
			}
			try {
				return wrapping.wrap(method, args, method.invoke(target, args));
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
		};
		return type.cast(Proxy.newProxyInstance(DriverCalls.class.getClassLoader(), new Class<?>[] { type }, handler));
	}

	// Counted before the call: a commit that fails was still sent.
	private void countTransactionCall(Connection connection, Method method, Object @Nullable [] args) throws Exception {
		switch (method.getName()) {
			case "commit", "rollback" -> this.transactionEnds.increment();
			case "setAutoCommit" -> {
				if (args != null && connection.getAutoCommit() != (Boolean) args[0]) {
					this.autoCommitChanges.increment();
				}
			}
			default -> {
			}
		}
	}

	private interface Wrapping {

		Object wrap(Method method, Object @Nullable [] args, Object result);

	}

}
