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
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisHandoffChannels}.
 *
 * @author Lease contributors
 */
class RedisHandoffChannelsTests {

	@Test
	void everySlotsChannelIsInThatSlot() {
		RedisHandoffChannels channels = new RedisHandoffChannels("lease:", true);
		for (int slot = 0; slot < RedisHandoffChannels.SLOTS; slot++) {
			String channel = channels.ofSlot(slot);
			assertThat(channel).startsWith("lease:handoff{").endsWith("}");
			assertThat(ClusterSlotHashUtil.calculateSlot(channel)).as(channel).isEqualTo(slot);
		}
	}

	@Test
	void aKeysChannelIsOfItsSlotWhenShardedElseThePlainOne() {
		byte[] redisKey = "lease:{a2V5}".getBytes(StandardCharsets.US_ASCII);
		assertThat(ClusterSlotHashUtil.calculateSlot(new RedisHandoffChannels("lease:", true).of(redisKey)))
			.isEqualTo(ClusterSlotHashUtil.calculateSlot(redisKey));
		assertThat(new String(new RedisHandoffChannels("lease:", false).of(redisKey), StandardCharsets.US_ASCII))
			.isEqualTo("lease:handoff");
	}

	@Test
	void shardedOnlyWhenEveryNodeRunsRedis7OrLater() {
		assertThat(RedisHandoffChannels.everyNodeShards(info("7.0.15", "7.2.4"))).isTrue();
		assertThat(RedisHandoffChannels.everyNodeShards(info("7.0.15", "6.2.14"))).isFalse();
		assertThat(RedisHandoffChannels.everyNodeShards(info("7.0.15", "unknown"))).isFalse();
		assertThat(RedisHandoffChannels.everyNodeShards(new Properties())).isFalse();
	}

	private static Properties info(String... versions) {
		Properties info = new Properties();
		for (int i = 0; i < versions.length; i++) {
			info.setProperty("127.0.0.1:700" + i + ".redis_version", versions[i]);
		}
		return info;
	}

}
