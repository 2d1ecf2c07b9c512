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
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

/**
 * A data source that counts the statements run through it and times each at the client,
 * for databases where {@code pg_stat_statements} is not loaded: every {@code execute*}
 * call is one statement and one round trip; its time includes the round trip and any wait
 * for a row lock.
 *
 * @author Lease contributors
 */
final class CountingDataSource {

	private final AtomicLong statements = new AtomicLong();

	private final AtomicLong nanos = new AtomicLong();

	private final AtomicLong maxNanos = new AtomicLong();

	private volatile String maxSql = "";

	private final DataSource dataSource;

	CountingDataSource(DataSource target) {
		this.dataSource = proxy(DataSource.class, target, (method, args, result) -> {
			if (method.getName().equals("getConnection")) {
				return proxy(Connection.class, (Connection) result, this::statementOf);
			}
			return result;
		});
	}

	DataSource dataSource() {
		return this.dataSource;
	}

	long statements() {
		return this.statements.get();
	}

	long micros() {
		return this.nanos.get() / 1000;
	}

	/**
	 * Return the longest single statement since the previous call, and start again.
	 * @return the longest statement's time and text
	 */
	synchronized ScaleStore.Counters takeMax() {
		long max = this.maxNanos.getAndSet(0);
		String sql = this.maxSql;
		this.maxSql = "";
		return new ScaleStore.Counters(statements(), -1, micros(), max / 1000, sql);
	}

	private Object statementOf(Method method, Object[] args, Object result) {
		String sql = (args != null && args.length > 0 && args[0] instanceof String text) ? text : "";
		if (result instanceof CallableStatement callable) {
			return timed(CallableStatement.class, callable, sql);
		}
		if (result instanceof PreparedStatement prepared) {
			return timed(PreparedStatement.class, prepared, sql);
		}
		if (result instanceof Statement statement) {
			return timed(Statement.class, statement, sql);
		}
		return result;
	}

	private <T extends Statement> T timed(Class<T> type, T target, String preparedSql) {
		InvocationHandler handler = (proxy, method, args) -> {
			if (!method.getName().startsWith("execute")) {
				return invoke(target, method, args);
			}
			String sql = (args != null && args.length > 0 && args[0] instanceof String text) ? text : preparedSql;
			long start = System.nanoTime();
			try {
				return invoke(target, method, args);
			}
			finally {
				record(System.nanoTime() - start, sql);
			}
		};
		return type
			.cast(Proxy.newProxyInstance(CountingDataSource.class.getClassLoader(), new Class<?>[] { type }, handler));
	}

	private void record(long elapsed, String sql) {
		this.statements.incrementAndGet();
		this.nanos.addAndGet(elapsed);
		if (elapsed > this.maxNanos.get()) {
			synchronized (this) {
				if (elapsed > this.maxNanos.get()) {
					this.maxNanos.set(elapsed);
					this.maxSql = brief(sql);
				}
			}
		}
	}

	// One line, short enough for a table cell.
	private static String brief(String sql) {
		String line = sql.replaceAll("\\s+", " ").trim();
		return (line.length() > 60) ? line.substring(0, 57) + "..." : line;
	}

	private <T> T proxy(Class<T> type, T target, Wrapping wrapping) {
		InvocationHandler handler = (proxy, method, args) -> wrapping.wrap(method, args, invoke(target, method, args));
		return type
			.cast(Proxy.newProxyInstance(CountingDataSource.class.getClassLoader(), new Class<?>[] { type }, handler));
	}

	private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

	private interface Wrapping {

		Object wrap(Method method, Object[] args, Object result);

	}

}
