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

package dev.lease.host.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHostException;
import dev.lease.host.Wakeups;
import dev.lease.host.redis.RedisScriptAnswer.Ended;
import dev.lease.host.redis.RedisScriptAnswer.Granted;
import dev.lease.host.redis.RedisScriptAnswer.NotHolder;
import dev.lease.host.redis.RedisScriptAnswer.Queued;
import dev.lease.host.redis.RedisScriptAnswer.Reentrant;
import dev.lease.host.redis.RedisScriptAnswer.Refused;
import dev.lease.host.redis.RedisScriptAnswer.Standing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RedisScriptAnswer}: every answer of the documented protocol is read as
 * its type, and any other answer fails instead of being read as a grant.
 *
 * @author Lease contributors
 */
class RedisScriptAnswerTests {

	private static final byte[] KEY = "lease:{a2V5}".getBytes(StandardCharsets.US_ASCII);

	@Test
	@DisplayName("Operation 6, 7, Non-goal 1: try answers taken with its instant, held, or reentrant")
	void tryTakeAnswers() {
		assertThat(RedisScriptAnswer.tryTake(List.of(1L, 1_500_000L))).isEqualTo(new Granted(1_500_000L));
		assertThat(RedisScriptAnswer.tryTake(List.of(0L))).isEqualTo(new Refused());
		assertThat(RedisScriptAnswer.tryTake(List.of(-1L))).isEqualTo(new Reentrant());
		assertThat(new Granted(1_500_000L).instant()).isEqualTo(Instant.ofEpochSecond(1, 500_000_000));
	}

	@Test
	@DisplayName("Operation 2-5: take answers taken, queued with its bound, the standing term and whether next in line, or reentrant")
	void takeAnswers() {
		assertThat(RedisScriptAnswer.take(List.of(1L, 7L))).isEqualTo(new Granted(7L));
		assertThat(RedisScriptAnswer.take(List.of(0L, 30L, 20L, 1L))).isEqualTo(new Queued(30L, 20L, true, null));
		assertThat(RedisScriptAnswer.take(List.of(0L, 30L, 20L, 0L))).isEqualTo(new Queued(30L, 20L, false, null));
		assertThat(RedisScriptAnswer.take(List.of(-1L))).isEqualTo(new Reentrant());
	}

	@Test
	@DisplayName("Operation 2, 4: a waiter's question answers granted, queued, or refused (no longer queued)")
	void waiterAnswers() {
		assertThat(RedisScriptAnswer.waiter(List.of(1L, 7L))).isEqualTo(new Granted(7L));
		assertThat(RedisScriptAnswer.waiter(List.of(0L, 30L, 20L, 0L))).isEqualTo(new Queued(30L, 20L, false, null));
		assertThat(RedisScriptAnswer.waiter(List.of(0L, 30L, 20L, 0L, "t1".getBytes(StandardCharsets.US_ASCII), 9L)))
			.isEqualTo(new Queued(30L, 20L, false, new Wakeups.Handoff<>("t1", RedisScriptAnswer.instant(9L))));
		assertThat(RedisScriptAnswer.waiter(List.of(2L))).isEqualTo(new Refused());
	}

	@Test
	@DisplayName("Operation 8, 9: remaining answers the term or none; release answers released, handed on or not held")
	void remainingAndReleaseAnswers() {
		assertThat(RedisScriptAnswer.remaining(List.of(1L, 2_000L))).isEqualTo(Duration.ofMillis(2));
		assertThat(RedisScriptAnswer.remaining(List.of(0L))).isNull();
		assertThat(RedisScriptAnswer.release(List.of(1L))).isEqualTo(new Ended(null));
		assertThat(RedisScriptAnswer.release(List.of(1L, "t1".getBytes(StandardCharsets.US_ASCII), 9L)))
			.isEqualTo(new Ended(new Wakeups.Handoff<>("t1", RedisScriptAnswer.instant(9L))));
		assertThat(RedisScriptAnswer.release(List.of(0L))).isEqualTo(new NotHolder());
		Standing standing = RedisScriptAnswer.grant(List.of(1L, "h".getBytes(StandardCharsets.US_ASCII), 9L, 4L));
		assertThat(standing).isNotNull();
		assertThat(standing.holder()).containsExactly('h');
		assertThat(standing.start()).isEqualTo(RedisScriptAnswer.instant(4L));
		Standing startUnknown = RedisScriptAnswer.grant(List.of(1L, "h".getBytes(StandardCharsets.US_ASCII), 9L, 0L));
		assertThat(startUnknown).isNotNull();
		assertThat(startUnknown.start()).as("a grant of a value that kept no start").isNull();
		assertThat(RedisScriptAnswer.grant(List.of(0L))).isNull();
	}

	@Test
	@DisplayName("Operation 13: an answer outside the protocol fails and is never read as a grant")
	void unexpectedAnswersFail() {
		assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> RedisScriptAnswer.tryTake(List.of(2L)))
			.withMessageContaining("Unexpected answer");
		assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> RedisScriptAnswer.take(List.of(0L)));
		assertThatExceptionOfType(LeaseHostException.class)
			.isThrownBy(() -> RedisScriptAnswer.waiter(List.of(1L, "x".getBytes(StandardCharsets.US_ASCII))));
		assertThatExceptionOfType(LeaseHostException.class)
			.isThrownBy(() -> RedisScriptAnswer.tryTake(List.of(4_294_967_297L)));
		assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> RedisScriptAnswer.grant(List.of(1L, 9L)));
		assertThatExceptionOfType(LeaseHostException.class)
			.isThrownBy(() -> RedisScriptAnswer.grant(List.of(1L, "h".getBytes(StandardCharsets.US_ASCII), 9L)));
	}

	@Test
	@DisplayName("Operation 13: a key holding no lease state this script reads fails, naming the key and the prefix")
	void foreignValueAnswersFail() {
		assertThatExceptionOfType(LeaseHostException.class)
			.isThrownBy(() -> RedisScriptAnswer.requireLeaseState(KEY,
					List.of(-2L, "hash".getBytes(StandardCharsets.US_ASCII))))
			.withMessageContaining("'lease:{a2V5}' holds a hash")
			.withMessageContaining("lease.redis.key-prefix");
		assertThatExceptionOfType(LeaseHostException.class)
			.isThrownBy(() -> RedisScriptAnswer.requireLeaseState(KEY, List.of(-3L, 2L)))
			.withMessageContaining("format version 2");
		RedisScriptAnswer.requireLeaseState(KEY, List.of(-1L));
	}

}
