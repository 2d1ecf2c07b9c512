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
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;

import dev.lease.host.StoreProtocol;
import dev.lease.host.StoreProtocolReading;

/**
 * The protocol a Redis host's instances speak on one key prefix, recorded in the hash
 * {@code <prefix>protocol} (fields {@code version} and {@code works-beside-since}; no
 * lease's key has that name, and the grants' SCAN pattern does not match it). Each start
 * reads it and, in the same script, writes its own protocol where the record is absent or
 * names an older protocol this one works beside; a protocol it cannot work beside fails
 * the start.
 *
 * @author Lease contributors
 */
final class RedisProtocolRecord {

	/**
	 * The protocol of this release: the stored state of format version 2 (a key's waiters
	 * as entries of their own) and {@code lease.lua}'s questions. Version 1, the
	 * whole-queue form of earlier releases, recorded nothing and is not worked beside (a
	 * key in that form is refused).
	 */
	static final StoreProtocol PROTOCOL = new StoreProtocol(2, 2);

	private static final Log logger = LogFactory.getLog(RedisLeaseHost.class);

	// Reads the record and raises it to ours where StoreProtocol.raises says so, in one
	// step, so that two starts of different releases cannot both judge an absent record.
	private static final byte[] MEET = RedisLeaseStore.ascii("""
			local recorded = redis.call('HMGET', KEYS[1], 'version', 'works-beside-since')
			local version, since = tonumber(recorded[1]), tonumber(recorded[2])
			local ours, ours_since = tonumber(ARGV[1]), tonumber(ARGV[2])
			if not version or not since
					or (version < ours and version >= ours_since) then
				redis.call('HSET', KEYS[1], 'version', ARGV[1], 'works-beside-since', ARGV[2])
			end
			return { version or 0, since or 0 }
			""");

	private final String key;

	RedisProtocolRecord(String keyPrefix) {
		this.key = keyPrefix + "protocol";
	}

	// At start: read the record, raise it where ours is newer and works beside it, and
	// refuse a protocol this one cannot work beside.
	StoreProtocolReading meet(RedisConnection connection) {
		List<Object> answer = connection.scriptingCommands()
			.eval(MEET, ReturnType.MULTI, 1, RedisLeaseStore.ascii(this.key),
					RedisLeaseStore.ascii(Integer.toString(PROTOCOL.version())),
					RedisLeaseStore.ascii(Integer.toString(PROTOCOL.worksBesideSince())));
		StoreProtocolReading reading = reading(recorded(answer.get(0), answer.get(1)));
		return reading.atStart(logger::error,
				() -> logger.info("Redis lease host (key prefix " + prefix() + "): recorded protocol " + PROTOCOL
						+ " in " + reading.record() + "; instances of releases before 0.1.0 record none, and cannot"
						+ " work beside this one"),
				(other) -> logger
					.warn("Redis lease host (key prefix " + prefix() + "): working beside instances of protocol "
							+ other + " (this instance speaks " + PROTOCOL + "), as in a rolling deploy"));
	}

	// Health: the record as it stands, writing nothing.
	StoreProtocolReading read(RedisConnection connection) {
		List<byte[]> fields = connection.hashCommands()
			.hMGet(RedisLeaseStore.ascii(this.key), RedisLeaseStore.ascii("version"),
					RedisLeaseStore.ascii("works-beside-since"));
		return reading(recorded(number(fields.get(0)), number(fields.get(1))));
	}

	private StoreProtocolReading reading(@Nullable StoreProtocol recorded) {
		return new StoreProtocolReading("Redis key '" + this.key + "'",
				"delete the record (DEL " + this.key + ") so that the next start records its own", PROTOCOL, recorded);
	}

	private String prefix() {
		return "'" + this.key.substring(0, this.key.length() - "protocol".length()) + "'";
	}

	private static @Nullable StoreProtocol recorded(@Nullable Object version, @Nullable Object since) {
		long v = (version instanceof Long number) ? number : 0;
		long s = (since instanceof Long number) ? number : 0;
		if (v <= 0 && s <= 0) {
			return null;
		}
		return StoreProtocol.recorded(v, s);
	}

	private static @Nullable Long number(byte @Nullable [] field) {
		if (field == null) {
			return null;
		}
		try {
			return Long.parseLong(new String(field, StandardCharsets.US_ASCII));
		}
		catch (NumberFormatException ex) {
			return Long.MAX_VALUE;
		}
	}

}
