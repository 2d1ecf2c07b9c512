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

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseKey;
import dev.lease.host.Micros;
import dev.lease.host.Wakeups.Handoff;
import dev.lease.host.Wakeups.NextInLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PostgresqlHandoffMessage}, the handoff message sent with PostgreSQL
 * {@code NOTIFY}.
 *
 * @author Lease contributors
 */
class PostgresqlHandoffMessageTests {

	private static final LeaseKey KEY = LeaseKey.of("orders/42 \u00e9");

	@Test
	@DisplayName("Host: waking: a payload naming handed waiters and the next in line reads back as written")
	void payloadNamingWaitersRoundTrips() {
		PostgresqlHandoffMessage payload = new PostgresqlHandoffMessage(KEY,
				List.of(handoff(-7L, 1_764_000_000_123_456L), handoff(Long.MAX_VALUE, 1_764_000_001_000_001L)),
				nextInLine(Long.MIN_VALUE, 1_764_000_002_000_000L));
		assertThat(PostgresqlHandoffMessage.decode(payload.encode())).isEqualTo(payload);
	}

	@Test
	@DisplayName("Host: waking: a payload with only handed waiters, or only the next in line, reads back as written")
	void payloadWithOneSideRoundTrips() {
		PostgresqlHandoffMessage handed = new PostgresqlHandoffMessage(KEY, List.of(handoff(3L, 5L)), null);
		PostgresqlHandoffMessage next = new PostgresqlHandoffMessage(KEY, List.of(), nextInLine(4L, 6L));
		assertThat(PostgresqlHandoffMessage.decode(handed.encode())).isEqualTo(handed);
		assertThat(PostgresqlHandoffMessage.decode(next.encode())).isEqualTo(next);
	}

	@Test
	@DisplayName("Host: waking: a payload past NOTIFY's size limit is sent as its key alone, and wakes every waiter of the key")
	void payloadPastTheLimitNamesNobody() {
		List<Handoff<Long>> handed = new ArrayList<>();
		for (long id = 0; id < 1000; id++) {
			handed.add(handoff(Long.MAX_VALUE - id, 1_764_000_000_000_000L + id));
		}
		String text = new PostgresqlHandoffMessage(KEY, handed, null).encode();
		assertThat(text.length()).isLessThanOrEqualTo(PostgresqlHandoffMessage.MAXIMUM_LENGTH);
		PostgresqlHandoffMessage read = PostgresqlHandoffMessage.decode(text);
		assertThat(read).isEqualTo(new PostgresqlHandoffMessage(KEY, List.of(), null));
		assertThat(read.namesNobody()).isTrue();
	}

	@Test
	@DisplayName("Host: waking: a payload not of our making names no key, or only its key")
	void foreignPayloadWakesNobodyByName() {
		assertThat(PostgresqlHandoffMessage.decode(null)).isNull();
		assertThat(PostgresqlHandoffMessage.decode("")).isNull();
		assertThat(PostgresqlHandoffMessage.decode("not hex")).isNull();
		String key = new PostgresqlHandoffMessage(KEY, List.of(), null).encode();
		assertThat(PostgresqlHandoffMessage.decode(key + " 12:x 13@14"))
			.isEqualTo(new PostgresqlHandoffMessage(KEY, List.of(), null));
		assertThat(PostgresqlHandoffMessage.decode(key + " garbage"))
			.isEqualTo(new PostgresqlHandoffMessage(KEY, List.of(), null));
	}

	private static Handoff<Long> handoff(long waiter, long expiresAtMicros) {
		return new Handoff<>(waiter, Micros.toInstant(expiresAtMicros));
	}

	private static NextInLine<Long> nextInLine(long waiter, long standingExpiresAtMicros) {
		return new NextInLine<>(waiter, Micros.toInstant(standingExpiresAtMicros));
	}

}
