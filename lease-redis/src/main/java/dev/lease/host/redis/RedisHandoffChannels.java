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

import java.util.Collection;
import java.util.Properties;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The channels a host's handoff messages ({@link RedisHandoffMessage}) travel on. Plain:
 * the host's one channel, {@code <prefix>handoff}, which {@code lease.lua} publishes on
 * with {@code PUBLISH}; a cluster delivers each message to the subscribers of every node.
 * Sharded, on a cluster whose every node has sharded pub/sub (Redis 7.0) and a client
 * that subscribes per slot (Lettuce): one channel a slot, {@code <prefix>handoff{<tag>}}
 * with a tag that hashes to the slot, which the script publishes on with
 * {@code SPUBLISH}, delivered on the slot's shard only, and which a host subscribes to
 * with {@code SSUBSCRIBE} while it has waiters in the slot. The script is told the
 * sharded channel as the last argument of a call that may hand the key on.
 *
 * @author Lease contributors
 */
final class RedisHandoffChannels {

	static final int SLOTS = 16384;

	private static final int SHARDED_SINCE_MAJOR = 7;

	private final String plain;

	private final boolean sharded;

	RedisHandoffChannels(String keyPrefix, boolean sharded) {
		this.plain = keyPrefix + "handoff";
		this.sharded = sharded;
	}

	// Sharded where they pay and every part has them: a cluster, whose every node has
	// sharded pub/sub, through a client that subscribes per slot (Lettuce). A server that
	// does not answer INFO keeps the plain channel.
	static RedisHandoffChannels chosen(String keyPrefix, RedisConnectionFactory connectionFactory,
			RedisConnection connection) {
		if (!(connection instanceof RedisClusterConnection) || !RedisLeaseStore.lettucePresent
				|| !LettuceShardedHandoffs.handles(connectionFactory)) {
			return new RedisHandoffChannels(keyPrefix, false);
		}
		try {
			Properties info = connection.serverCommands().info("server");
			return new RedisHandoffChannels(keyPrefix, info != null && everyNodeShards(info));
		}
		catch (RuntimeException ex) {
			return new RedisHandoffChannels(keyPrefix, false);
		}
	}

	boolean sharded() {
		return this.sharded;
	}

	String plain() {
		return this.plain;
	}

	// The channel a call on the key names last: the plain one, which the script also
	// takes when no channel is named.
	byte[] of(byte[] redisKey) {
		return RedisLeaseStore.ascii(this.sharded ? ofSlot(slot(redisKey)) : this.plain);
	}

	String ofSlot(int slot) {
		return this.plain + "{" + SlotTags.TAGS[slot] + "}";
	}

	static int slot(byte[] redisKey) {
		return ClusterSlotHashUtil.calculateSlot(redisKey);
	}

	// Whether every node the INFO answer of a cluster connection lists (each property
	// prefixed by the node) runs a version with sharded pub/sub; a version not read
	// counts as without.
	static boolean everyNodeShards(Properties info) {
		Collection<String> versions = RedisDurabilityCheck.byNode(info, "redis_version").values();
		try {
			return !versions.isEmpty() && versions.stream()
				.allMatch((version) -> Integer.parseInt(version.trim().split("\\.", 2)[0]) >= SHARDED_SINCE_MAJOR);
		}
		catch (NumberFormatException ex) {
			return false;
		}
	}

	/**
	 * For each slot, the shortest base-36 number that hashes to it: computed once, when a
	 * host first names a sharded channel.
	 */
	private static final class SlotTags {

		private static final String[] TAGS = tags();

		private static String[] tags() {
			String[] tags = new String[SLOTS];
			int found = 0;
			for (int n = 0; found < SLOTS; n++) {
				String tag = Integer.toString(n, Character.MAX_RADIX);
				int slot = ClusterSlotHashUtil.calculateSlot(tag);
				if (tags[slot] == null) {
					tags[slot] = tag;
					found++;
				}
			}
			return tags;
		}

	}

}
