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

import java.time.Duration;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import dev.lease.host.HostThreads;
import dev.lease.host.StoreProtocolReading;

/**
 * A {@link JdbcLeaseHost}'s parts, built once the database has said which it is and the
 * store's protocol record was met ({@link JdbcProtocolRecord}): at construction, or at
 * the first call that reaches it; until then each call throws and nothing is granted.
 * Closed once: parts built after the host closed start no clean-up thread and no
 * listening connection.
 *
 * @author Lease contributors
 */
final class LazyJdbcLeaseParts {

	private final DataSource dataSource;

	private final String tablePrefix;

	private final boolean notifications;

	private final @Nullable DataSource listenDataSource;

	private final Duration cleanupInterval;

	private final JdbcProtocolRecord protocol;

	private volatile @Nullable JdbcLeaseParts parts;

	private final HostThreads threads;

	private boolean closed;

	LazyJdbcLeaseParts(DataSource dataSource, String tablePrefix, boolean notifications,
			@Nullable DataSource listenDataSource, Duration cleanupInterval, HostThreads threads) {
		this.threads = threads;
		this.dataSource = dataSource;
		this.tablePrefix = tablePrefix;
		this.notifications = notifications;
		this.listenDataSource = listenDataSource;
		this.cleanupInterval = cleanupInterval;
		this.protocol = new JdbcProtocolRecord(tablePrefix);
	}

	JdbcLeaseParts get() {
		JdbcLeaseParts built = this.parts;
		if (built != null) {
			return built;
		}
		synchronized (this) {
			built = this.parts;
			if (built == null) {
				JdbcLeaseDialect.Detected database = JdbcLeaseDialect.detect(this.dataSource);
				// a protocol this one cannot work beside leaves the host unbuilt: every
				// call fails the same way
				this.protocol.meet(this.dataSource);
				built = JdbcLeaseParts.of(this.dataSource, database, this.tablePrefix,
						this.notifications && !this.closed, this.listenDataSource,
						this.closed ? Duration.ZERO : this.cleanupInterval, this.threads);
				this.parts = built;
			}
			return built;
		}
	}

	// The store's protocol record as it stands, once the host is built.
	StoreProtocolReading protocol() {
		get();
		return this.protocol.read(this.dataSource);
	}

	void close() {
		JdbcLeaseParts built;
		synchronized (this) {
			this.closed = true;
			built = this.parts;
		}
		if (built != null) {
			built.close();
		}
		this.threads.close();
	}

}
