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

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import javax.sql.DataSource;

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
		this.dataSource = DriverRoundTrips.wrap(driver, (kind, text, start, nanos) -> {
			switch (kind) {
				case STATEMENT -> this.statements.increment();
				case TRANSACTION_END -> this.transactionEnds.increment();
				case AUTO_COMMIT_CHANGE -> this.autoCommitChanges.increment();
			}
		});
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

}
