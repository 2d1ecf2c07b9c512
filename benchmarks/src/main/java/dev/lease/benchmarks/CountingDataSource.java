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

import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

/**
 * A data source that counts the statements run through it and times each at the client
 * ({@link DriverRoundTrips}), for databases where {@code pg_stat_statements} is not
 * loaded: every {@code execute*} call is one statement and one round trip; its time
 * includes the round trip and any wait for a row lock.
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
		this.dataSource = DriverRoundTrips.wrap(target, (kind, text, start, elapsed) -> {
			if (kind == DriverRoundTrips.Kind.STATEMENT) {
				record(elapsed, text);
			}
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

}
