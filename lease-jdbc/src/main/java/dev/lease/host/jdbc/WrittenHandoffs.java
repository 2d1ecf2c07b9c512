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

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseKey;
import dev.lease.host.HandedGrant;
import dev.lease.host.KeyModel;
import dev.lease.host.Micros;
import dev.lease.host.QueuedWaiter;
import dev.lease.host.Wakeups;

/**
 * What a store call's write tells the waiters once it commits: the grants it handed on
 * and the waiter it left next in line, for this host's waiters ({@link Transaction}), and
 * for the other hosts' a PostgreSQL {@code NOTIFY} payload
 * ({@link PostgresqlHandoffMessage}).
 *
 * @author Lease contributors
 */
final class WrittenHandoffs {

	private WrittenHandoffs() {
	}

	// Note the grants handed to waiters and the waiter left next in line, to wake this
	// host's waiters after the commit, and answer the payload of the NOTIFY that wakes
	// the other hosts' waiters (when the host notifies and a waiter named is not this
	// host's), or null.
	static @Nullable String note(Transaction tx, KeyModel state, boolean notifying, JdbcLeaseCalls calls) {
		if (state.handed().isEmpty() && state.dropped().isEmpty()) {
			return null;
		}
		List<Wakeups.Handoff<Long>> handoffs = new ArrayList<>();
		for (HandedGrant handoff : state.handed()) {
			handoffs.add(new Wakeups.Handoff<>(handoff.waiter().id(), Micros.toInstant(handoff.expiresAt())));
		}
		tx.handoffs = handoffs;
		// The head may have changed: it asks when the standing grant ends, since a
		// handoff by expiry is written by nobody.
		QueuedWaiter head = state.head();
		Wakeups.NextInLine<Long> next = null;
		if (head != null && state.holder() != null) {
			next = new Wakeups.NextInLine<>(head.id(), Micros.toInstant(state.expiresAt()));
			tx.nextInLine = next;
		}
		else if (handoffs.isEmpty()) {
			return null;
		}
		if (!notifying || allHere(calls, state.key(), handoffs, next)) {
			return null;
		}
		// Delivered only once this transaction commits: the waiter it names may answer
		// Taken from it without asking.
		return new PostgresqlHandoffMessage(state.key(), handoffs, next).encode();
	}

	// Whether every waiter named waits on this host, which wakes them after the commit:
	// then no other host needs the message, and sending it would cost the commit the
	// server's lock on its notification queue, and this host's listener a wake-up.
	private static boolean allHere(JdbcLeaseCalls calls, LeaseKey key, List<Wakeups.Handoff<Long>> handoffs,
			Wakeups.@Nullable NextInLine<Long> next) {
		for (Wakeups.Handoff<Long> handoff : handoffs) {
			if (!calls.waitsHere(key, handoff.waiter())) {
				return false;
			}
		}
		return next == null || calls.waitsHere(key, next.waiter());
	}

}
