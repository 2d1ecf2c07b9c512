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

/**
 * A {@link JdbcLeaseHost}'s parts, built once the database has said which it is: at
 * construction, or at the first call that reaches it; until then each call throws and
 * nothing is granted. Closed once: parts built after the host closed start no clean-up
 * thread and no listening connection.
 *
 * @author Lease contributors
 */
final class LazyJdbcLeaseParts {

	private final DataSource dataSource;

	private final String tablePrefix;

	private final boolean notifications;

	private final @Nullable DataSource listenDataSource;

	private final Duration cleanupInterval;

	private volatile @Nullable JdbcLeaseParts parts;

	private boolean closed;

	LazyJdbcLeaseParts(DataSource dataSource, String tablePrefix, boolean notifications,
			@Nullable DataSource listenDataSource, Duration cleanupInterval) {
		this.dataSource = dataSource;
		this.tablePrefix = tablePrefix;
		this.notifications = notifications;
		this.listenDataSource = listenDataSource;
		this.cleanupInterval = cleanupInterval;
	}

	JdbcLeaseParts get() {
		JdbcLeaseParts built = this.parts;
		if (built != null) {
			return built;
		}
		synchronized (this) {
			built = this.parts;
			if (built == null) {
				built = JdbcLeaseParts.of(this.dataSource, JdbcLeaseDialect.detect(this.dataSource), this.tablePrefix,
						this.notifications && !this.closed, this.listenDataSource,
						this.closed ? Duration.ZERO : this.cleanupInterval);
				this.parts = built;
			}
			return built;
		}
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
	}

}
