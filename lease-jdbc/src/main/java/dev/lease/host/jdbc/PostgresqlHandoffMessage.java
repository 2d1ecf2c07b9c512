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

import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseKey;
import dev.lease.host.Micros;
import dev.lease.host.Wakeups.Handoff;
import dev.lease.host.Wakeups.NextInLine;

/**
 * The handoff message a committed change sends other hosts as the payload of a PostgreSQL
 * {@code NOTIFY}, written and read only here: the key, the grants handed to its waiters,
 * and the waiter left next in line with the standing grant's instant. Its text is
 * {@code <hex key>[ <waiter id>:<expiresAt>]...[ <waiter id>@<standing expiresAt>]}, the
 * instants in microseconds of the host's clock. A payload that names nobody wakes every
 * waiter of its key, and each asks: the form sent when the whole would pass
 * {@code NOTIFY}'s size limit, and what a payload not of our making beyond its key reads
 * as.
 *
 * @param key the key whose waiters are woken
 * @param handed the grants handed to waiters, which these may take without asking
 * @param next the waiter now at the head of the queue and the instant the standing grant
 * ends, when it should ask then, or {@code null}
 * @author Lease contributors
 */
record PostgresqlHandoffMessage(LeaseKey key, List<Handoff<Long>> handed, @Nullable NextInLine<Long> next) {

	// PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; the text is ASCII.
	static final int MAXIMUM_LENGTH = 7999;

	PostgresqlHandoffMessage {
		handed = List.copyOf(handed);
	}

	/**
	 * Return whether the payload names no waiter, so that every waiter of its key asks.
	 * @return whether nobody is named
	 */
	boolean namesNobody() {
		return this.handed.isEmpty() && this.next == null;
	}

	/**
	 * Write the payload, as the key alone when the whole is too long for {@code NOTIFY}.
	 * @return the text of the payload
	 */
	String encode() {
		String key = HexFormat.of().formatHex(this.key.bytes());
		StringBuilder text = new StringBuilder(key);
		for (Handoff<Long> handoff : this.handed) {
			text.append(' ').append(handoff.waiter()).append(':').append(Micros.of(handoff.expiresAt()));
		}
		if (this.next != null) {
			text.append(' ').append(this.next.waiter()).append('@').append(Micros.of(this.next.standingExpiresAt()));
		}
		return (text.length() <= MAXIMUM_LENGTH) ? text.toString() : key;
	}

	/**
	 * Read a payload; one whose waiters cannot be read names nobody.
	 * @param text the text of the payload
	 * @return the payload, or {@code null} when the text names no key
	 */
	static @Nullable PostgresqlHandoffMessage decode(@Nullable String text) {
		if (text == null || text.isEmpty()) {
			return null;
		}
		String[] parts = text.split(" ");
		LeaseKey key;
		try {
			key = LeaseKey.of(HexFormat.of().parseHex(parts[0]));
		}
		catch (RuntimeException ex) {
			return null;
		}
		List<Handoff<Long>> handed = new ArrayList<>();
		NextInLine<Long> next = null;
		try {
			for (int i = 1; i < parts.length; i++) {
				int colon = parts[i].indexOf(':');
				int split = (colon >= 0) ? colon : parts[i].indexOf('@');
				Instant expiresAt = Micros.toInstant(Long.parseLong(parts[i].substring(split + 1)));
				long waiter = Long.parseLong(parts[i].substring(0, split));
				if (colon >= 0) {
					handed.add(new Handoff<>(waiter, expiresAt));
				}
				else {
					next = new NextInLine<>(waiter, expiresAt);
				}
			}
		}
		catch (RuntimeException ex) {
			return new PostgresqlHandoffMessage(key, List.of(), null);
		}
		return new PostgresqlHandoffMessage(key, handed, next);
	}

}
