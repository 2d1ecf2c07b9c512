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

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.host.Wakeups;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisHandoffMessage}, the decoder of what {@code lease.lua} publishes.
 *
 * @author Lease contributors
 */
class RedisHandoffMessageTests {

	@Test
	@DisplayName("Operation 1, 2 (waking): a handoff names the ticket the key went to, its instant, and the waiter next in line with the standing term")
	void handoffToATicketWithAWaiterNextInLineIsRead() {
		RedisHandoffMessage message = RedisHandoffMessage.parse("lease:{a2V5} t1 1700000000123456 t2 30000000");
		assertThat(message)
			.isEqualTo(new RedisHandoffMessage("lease:{a2V5}", "t1", 1700000000123456L, "t2", 30000000L));
		assertThat(message.handoff())
			.isEqualTo(new Wakeups.Handoff<>("t1", RedisScriptAnswer.instant(1700000000123456L)));
	}

	@Test
	@DisplayName("Operation 1, 2 (waking): '-' names nobody: a withdrawn head hands nothing, and an emptied queue has nobody next")
	void dashNamesNobody() {
		RedisHandoffMessage withdrawn = RedisHandoffMessage.parse("lease:{a2V5} - 0 t2 1500");
		assertThat(withdrawn).isEqualTo(new RedisHandoffMessage("lease:{a2V5}", null, 0L, "t2", 1500L));
		assertThat(withdrawn.handoff()).isNull();
		assertThat(RedisHandoffMessage.parse("lease:{a2V5} t1 7 - 0"))
			.isEqualTo(new RedisHandoffMessage("lease:{a2V5}", "t1", 7L, null, 0L));
	}

	@Test
	@DisplayName("Operation 1, 2 (waking): a body not of the format is not read as a handoff")
	void bodyOfAnotherFormatIsNotRead() {
		assertThat(RedisHandoffMessage.parse("lease:{a2V5}")).isNull();
		assertThat(RedisHandoffMessage.parse("lease:{a2V5} t1 7")).isNull();
		assertThat(RedisHandoffMessage.parse("lease:{a2V5} t1 seven t2 0")).isNull();
		assertThat(RedisHandoffMessage.parse("lease:{a2V5} t1 7 t2 0 extra")).isNull();
		assertThat(RedisHandoffMessage.parse("lease:{a2V5} t1 99999999999999999999 t2 0")).isNull();
		assertThat(RedisHandoffMessage.parse("probe:5b1c")).isNull();
	}

}
