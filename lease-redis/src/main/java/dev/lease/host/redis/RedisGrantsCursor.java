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

import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * Where a pass over a Redis host's grants stands, written as the opaque cursor of
 * {@code grants}. On one server: SCAN's own cursor (empty once SCAN has come round), and
 * the keys its last step found beyond the page's limit, which the next page lists first
 * rather than drop. On a cluster: the primary, by its place among the primaries ordered
 * by id, and the last key listed from it, the page after which lists its keys in key
 * order.
 *
 * @param node the primary's place on a cluster, or -1 on one server
 * @param scan SCAN's cursor on one server, empty when SCAN has come round; unused on a
 * cluster
 * @param pending on one server, Redis keys found and not yet listed; on a cluster, the
 * last Redis key listed from the node, if any
 * @author Lease contributors
 */
record RedisGrantsCursor(int node, String scan, List<byte[]> pending) {

	private static final String SEPARATOR = ".";

	static final RedisGrantsCursor FIRST_ON_SERVER = new RedisGrantsCursor(-1, "0", List.of());

	static final RedisGrantsCursor FIRST_ON_CLUSTER = new RedisGrantsCursor(0, "0", List.of());

	boolean scanDone() {
		return this.scan.isEmpty();
	}

	String text() {
		return Stream
			.concat(Stream.of(this.node + SEPARATOR + this.scan),
					this.pending.stream().map(Base64.getUrlEncoder().withoutPadding()::encodeToString))
			.collect(Collectors.joining(SEPARATOR));
	}

	static @Nullable RedisGrantsCursor parse(@Nullable String cursor) {
		if (cursor == null) {
			return null;
		}
		try {
			String[] parts = cursor.split("\\.", -1);
			int node = Integer.parseInt(parts[0]);
			String scan = parts[1];
			if (node < -1) {
				throw new IllegalArgumentException(cursor);
			}
			if (!scan.isEmpty()) {
				// SCAN's cursor is an unsigned 64-bit number.
				Long.parseUnsignedLong(scan);
			}
			List<byte[]> pending = Arrays.stream(parts, 2, parts.length).map(Base64.getUrlDecoder()::decode).toList();
			return new RedisGrantsCursor(node, scan, pending);
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("'cursor' is not a cursor this host answered: '" + cursor + "'", ex);
		}
	}

}
