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

import java.util.List;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.test.support.RedisTestServer;

/**
 * Tests that the cost of a {@link RedisLeaseHost} handoff does not grow with the queue
 * (issue 16), counted, not timed: on a server of the test's own, the script calls per
 * handoff, the commands each call runs (the entries it touches), and the length of the
 * one value every call reads whole, at 10 and at 2,000 waiters on one key.
 *
 * @author Lease contributors
 */
class RedisHotKeyCostIntegrationTests {

	@Test
	@DisplayName("Non-goal 3 at scale: with 2,000 waiters on one key a handoff costs at most 3 script calls (only the waiter the key went to wakes), each touching as many entries as at 10 waiters")
	void handoffCostIsIndependentOfTheQueue() throws Exception {
		try (RedisTestServer server = RedisTestServer.startEmbedded(RedisTestServer.freePort(), List.of())) {
			RedisConnectionFactory factory = server.lettuce();
			RedisHotKey.Result few = RedisHotKey.run(factory, 10, 5, false);
			RedisHotKey.Result many = RedisHotKey.run(factory, 2_000, 10, false);
			SoftAssertions softly = new SoftAssertions();
			softly.assertThat(many.handoffs()).as("handoffs done at 2,000 waiters").isEqualTo(10);
			softly.assertThat(many.callsPerHandoff())
				.as("script calls per handoff at 2,000 waiters (%s)", many)
				.isLessThanOrEqualTo(3);
			softly.assertThat(many.commandsPerCall())
				.as("commands per script call at 2,000 waiters (%s) against 10 (%s)", many, few)
				.isLessThanOrEqualTo(few.commandsPerCall() + 2);
			softly.assertThat(many.valueLength())
				.as("length of the value every call reads whole at 2,000 waiters against 10")
				.isEqualTo(few.valueLength());
			softly.assertAll();
		}
	}

}
