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

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.RowMapper;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.host.KeyModel;
import dev.lease.host.Micros;
import dev.lease.host.QueuedWaiter;
import dev.lease.host.WaiterQueue;
import dev.lease.host.Wakeups;

/**
 * A key's row as read: its grant and when it began, the latest clock reading saved for
 * it, its queue's length and its count of arrivals. Read from the columns {@code HOLDER,
 * EXPIRES_AT, LATEST, QUEUED, ARRIVALS, GRANTED_AT} in that order, starting at a given
 * column; with the typed rows of the host's other questions.
 *
 * @param holder the holder of the stored grant, or {@code null}
 * @param expiresAt the stored grant's instant, microseconds since the epoch
 * @param latest the latest reading of the database clock saved for the key
 * @param queued how many waiters are queued
 * @param arrivals how many waiters have arrived
 * @param grantedAt when the stored grant began, or 0 where the row does not say: written
 * before the column existed, or by an instance of an earlier release
 * @author Lease contributors
 */
record KeyRow(byte @Nullable [] holder, long expiresAt, long latest, int queued, long arrivals, long grantedAt) {

	/** The row from its first column. */
	static final RowMapper<KeyRow> ROW = (resultSet, rowNumber) -> of(resultSet, 1);

	/** The row, then a reading of the clock. */
	static final RowMapper<Read> ROW_AND_NOW = (resultSet, rowNumber) -> new Read(of(resultSet, 1),
			number(resultSet, 7));

	/** A queued waiter from its first column. */
	static final RowMapper<QueuedWaiter> WAITER = (resultSet, rowNumber) -> waiter(resultSet, 1);

	/** A reading of the clock, then a queued waiter, if any (an outer join). */
	static final RowMapper<QueueRow> NOW_AND_WAITER = (resultSet, rowNumber) -> new QueueRow(number(resultSet, 1),
			(resultSet.getObject(2) != null) ? waiter(resultSet, 2) : null);

	/** A waiter's row as it asks where it stands: BOUND, GRANTED_EXPIRES_AT. */
	static final RowMapper<WaiterRow> WAITER_ROW = (resultSet, rowNumber) -> new WaiterRow(number(resultSet, 1),
			optionalNumber(resultSet, 2));

	/**
	 * What a key's poller learns, from the columns IS_NEXT, WAITER_ID and an instant: a
	 * grant handed to a waiter, or the head of the queue and the standing grant's end.
	 */
	static final RowMapper<Polled> POLLED = (resultSet, rowNumber) -> Polled.of(number(resultSet, 1) == 1,
			number(resultSet, 2), Micros.toInstant(number(resultSet, 3)));

	/** A number that is never null, such as a grant's instant. */
	static final RowMapper<Long> NUMBER = (resultSet, rowNumber) -> number(resultSet, 1);

	/** A key's bytes. */
	static final RowMapper<byte[]> KEY = (resultSet, rowNumber) -> resultSet.getBytes(1);

	static KeyRow of(ResultSet resultSet, int first) throws SQLException {
		return new KeyRow(resultSet.getBytes(first), optionalNumber(resultSet, first + 1).orElse(0),
				number(resultSet, first + 2), (int) number(resultSet, first + 3), number(resultSet, first + 4),
				number(resultSet, first + 5));
	}

	KeyModel state(LeaseKey key, WaiterQueue queue) {
		return new KeyModel(key, (this.holder != null) ? LeaseHolder.of(this.holder) : null, this.expiresAt,
				this.grantedAt, this.latest, this.arrivals, queue);
	}

	// The HOLDER column of a state: null when no grant stands.
	static byte @Nullable [] holderBytes(KeyModel state) {
		LeaseHolder holder = state.holder();
		return (holder != null) ? holder.bytes() : null;
	}

	static long number(ResultSet resultSet, int column) throws SQLException {
		long value = resultSet.getLong(column);
		if (value == 0 && resultSet.wasNull()) {
			throw new IllegalStateException("The database answered no value for a column that has one");
		}
		return value;
	}

	static OptionalLong optionalNumber(ResultSet resultSet, int column) throws SQLException {
		long value = resultSet.getLong(column);
		return (value == 0 && resultSet.wasNull()) ? OptionalLong.empty() : OptionalLong.of(value);
	}

	// A waiter's columns WAITER_ID, HOLDER, DURATION_MICROS, BOUND, ARRIVAL, ARRIVED_AT
	// from the given column on.
	static QueuedWaiter waiter(ResultSet resultSet, int first) throws SQLException {
		return new QueuedWaiter(number(resultSet, first), LeaseHolder.of(resultSet.getBytes(first + 1)),
				number(resultSet, first + 2), number(resultSet, first + 3), number(resultSet, first + 4),
				number(resultSet, first + 5));
	}

	/**
	 * A key's row read together with the database's clock.
	 *
	 * @param row the key's row
	 * @param now the reading of the clock
	 */
	record Read(KeyRow row, long now) {

	}

	/**
	 * A reading of the clock with a queued waiter, if any.
	 *
	 * @param now the reading of the clock
	 * @param waiter the waiter, or {@code null} when nobody is queued
	 */
	record QueueRow(long now, @Nullable QueuedWaiter waiter) {

	}

	/**
	 * A waiter's row as it asks where it stands.
	 *
	 * @param bound the waiter's bound
	 * @param granted the instant of the grant handed to it, if any
	 */
	record WaiterRow(long bound, OptionalLong granted) {

	}

	/**
	 * One row of a key's poll.
	 *
	 * @param handed a grant handed to a waiter and not yet taken up, or {@code null}
	 * @param next the waiter at the head of the queue and the standing grant's instant,
	 * or {@code null}
	 */
	record Polled(Wakeups.@Nullable Handoff<Long> handed, Wakeups.@Nullable NextInLine<Long> next) {

		static Polled of(boolean nextInLine, long waiter, Instant instant) {
			return nextInLine ? new Polled(null, new Wakeups.NextInLine<>(waiter, instant))
					: new Polled(new Wakeups.Handoff<>(waiter, instant), null);
		}

	}

}
