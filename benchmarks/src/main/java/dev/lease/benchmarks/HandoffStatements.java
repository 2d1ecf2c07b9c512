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

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import javax.sql.DataSource;

/**
 * The round trips of one handoff as the driver sees them ({@link DriverRoundTrips}), each
 * with the thread that ran it and its time at the client, recorded only while a handoff
 * is measured. The host still finds its pool behind the data source, so it opens its
 * {@code LISTEN} connection outside the pool, as it does without this log: the
 * notification itself is read by the driver and is not a statement.
 *
 * @author Lease contributors
 */
final class HandoffStatements {

	private final ConcurrentLinkedQueue<Entry> entries = new ConcurrentLinkedQueue<>();

	private volatile boolean recording;

	private final DataSource dataSource;

	HandoffStatements(DataSource target) {
		this.dataSource = DriverRoundTrips.wrap(target, (kind, text, start, nanos) -> {
			if (this.recording) {
				String label = switch (kind) {
					case STATEMENT -> brief(text);
					case TRANSACTION_END -> text.toUpperCase();
					case AUTO_COMMIT_CHANGE -> "setAutoCommit";
				};
				this.entries.add(new Entry(Thread.currentThread(), label, start, nanos));
			}
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

	// One line, short enough for a table cell.
	private static String brief(String sql) {
		String line = sql.replaceAll("\\s+", " ").trim();
		return (line.length() > 70) ? line.substring(0, 67) + "..." : line;
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

}
