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
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import javax.sql.DataSource;

/**
 * The round trips of one handoff as the driver sees them: every {@code execute*} call of
 * a statement, and every {@code commit}, {@code rollback} and {@code setAutoCommit} of a
 * connection (on MariaDB each is a round trip of its own; PostgreSQL's driver sends
 * {@code BEGIN} with the first statement), each with the thread that ran it and its time
 * at the client, recorded only while a handoff is measured.
 * <p>
 * The data source answers {@code unwrap} with the pool it wraps, so that the host opens
 * its {@code LISTEN} connection outside the pool, as it does without this log: the
 * notification itself is read by the driver and is not a statement.
 *
 * @author Lease contributors
 */
final class HandoffStatements {

	private final ConcurrentLinkedQueue<Entry> entries = new ConcurrentLinkedQueue<>();

	private volatile boolean recording;

	private final DataSource dataSource;

	HandoffStatements(DataSource target) {
		this.dataSource = proxy(DataSource.class, target, (method, args, result) -> {
			if (method.getName().equals("getConnection")) {
				Connection connection = (Connection) result;
				return Proxy.newProxyInstance(HandoffStatements.class.getClassLoader(),
						new Class<?>[] { Connection.class },
						(proxy, called, calledArgs) -> connectionCall(connection, called, calledArgs));
			}
			return result;
		});
	}

	DataSource dataSource() {
		return this.dataSource;
	}

	void start() {
		this.entries.clear();
		this.recording = true;
	}

	List<Entry> stop() {
		this.recording = false;
		return List.copyOf(this.entries);
	}

	private Object connectionCall(Connection connection, Method method, Object[] args) throws Throwable {
		String name = method.getName();
		boolean roundTrip = name.equals("commit") || name.equals("rollback") || name.equals("setAutoCommit");
		long start = System.nanoTime();
		Object result = invoke(connection, method, args);
		if (roundTrip) {
			String label = name.equals("setAutoCommit") ? "setAutoCommit(" + args[0] + ")" : name.toUpperCase();
			record(label, start);
		}
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
				record(brief(sql), start);
			}
		};
		return type
			.cast(Proxy.newProxyInstance(HandoffStatements.class.getClassLoader(), new Class<?>[] { type }, handler));
	}

	private void record(String label, long start) {
		if (this.recording) {
			this.entries.add(new Entry(Thread.currentThread(), label, start, System.nanoTime() - start));
		}
	}

	// One line, short enough for a table cell.
	private static String brief(String sql) {
		String line = sql.replaceAll("\\s+", " ").trim();
		return (line.length() > 70) ? line.substring(0, 67) + "..." : line;
	}

	private static <T> T proxy(Class<T> type, T target, Wrapping wrapping) {
		InvocationHandler handler = (proxy, method, args) -> wrapping.wrap(method, args, invoke(target, method, args));
		return type
			.cast(Proxy.newProxyInstance(HandoffStatements.class.getClassLoader(), new Class<?>[] { type }, handler));
	}

	private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

	/**
	 * One round trip.
	 *
	 * @param thread the thread that ran it
	 * @param label the statement, or the connection call
	 * @param startNanos when it was sent, on {@code System.nanoTime()}
	 * @param nanos its time at the client
	 */
	record Entry(Thread thread, String label, long startNanos, long nanos) {

	}

	private interface Wrapping {

		Object wrap(Method method, Object[] args, Object result) throws Throwable;

	}

}
