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

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

/**
 * A data source that counts the statements run through it: every {@code execute*} call is
 * one statement and one round trip (as the benchmarks' {@code CountingDataSource}).
 *
 * @author Lease contributors
 */
final class StatementCounter {

	private final AtomicLong statements = new AtomicLong();

	private final DataSource dataSource;

	StatementCounter(DataSource target) {
		this.dataSource = proxy(DataSource.class, target, (method, result) -> (result instanceof Connection connection)
				? proxy(Connection.class, connection, this::counted) : result);
	}

	DataSource dataSource() {
		return this.dataSource;
	}

	long statements() {
		return this.statements.get();
	}

	private Object counted(Method method, Object result) {
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
		return proxy(type, target, (method, result) -> result, (method) -> {
			if (method.getName().startsWith("execute")) {
				this.statements.incrementAndGet();
			}
		});
	}

	private static <T> T proxy(Class<T> type, T target, Wrapping wrapping) {
		return proxy(type, target, wrapping, (method) -> {
		});
	}

	private static <T> T proxy(Class<T> type, T target, Wrapping wrapping, Before before) {
		InvocationHandler handler = (proxy, method, args) -> {
			before.call(method);
			try {
				return wrapping.wrap(method, method.invoke(target, args));
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
		};
		return type
			.cast(Proxy.newProxyInstance(StatementCounter.class.getClassLoader(), new Class<?>[] { type }, handler));
	}

	private interface Wrapping {

		Object wrap(Method method, Object result);

	}

	private interface Before {

		void call(Method method);

	}

}
