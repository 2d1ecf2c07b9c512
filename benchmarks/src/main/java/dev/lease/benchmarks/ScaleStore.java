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

import dev.lease.LeaseHost;
import dev.lease.LeaseKey;

/**
 * One host under the scale suite, with the store-side counters it can read: how many
 * calls the host made, how much store time they took and the longest single call, between
 * two {@link #counters()} readings.
 *
 * @author Lease contributors
 */
interface ScaleStore extends AutoCloseable {

	/**
	 * Return the name printed in the table.
	 * @return the host's name
	 */
	String name();

	/**
	 * Return the host under measurement.
	 * @return the host
	 */
	LeaseHost host();

	/**
	 * Read the store's counters now.
	 * @return the counters, cumulative since the store was opened
	 */
	Counters counters();

	/**
	 * Remove everything the host keeps for the key, so that the waiters left when a row
	 * hits its cap withdraw cheaply; only ever on this suite's own keys and tables.
	 * @param key the key of the row
	 */
	void forget(LeaseKey key);

	/**
	 * Remove every grant and waiter this suite wrote.
	 */
	void clear();

	/**
	 * Return the bytes the store holds for this suite's grants, or {@code -1} when it
	 * cannot tell.
	 * @return the bytes now
	 */
	long storedBytes();

	@Override
	void close();

	/**
	 * Cumulative counters; a figure is {@code -1} where the store cannot count it.
	 *
	 * @param calls host calls reaching the store (Redis commands, SQL statements)
	 * @param scriptCalls script calls among them (Redis {@code EVAL}, {@code EVALSHA},
	 * {@code FCALL}), or {@code -1}
	 * @param storeMicros store time: Redis CPU of the server process, PostgreSQL
	 * statement time measured at the client
	 * @param maxSingleMicros the longest single call since the previous reading
	 * @param maxSingleName what that call was
	 */
	record Counters(long calls, long scriptCalls, long storeMicros, long maxSingleMicros, String maxSingleName) {

		static final Counters NONE = new Counters(-1, -1, -1, -1, "");

	}

}
