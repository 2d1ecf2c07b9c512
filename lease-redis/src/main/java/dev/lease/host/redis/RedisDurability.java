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

/**
 * Whether a Redis server keeps every grant (Invariant 2.2): across its own restart
 * ({@code appendonly}, {@code appendfsync}) and when its memory is full
 * ({@code maxmemory}, {@code maxmemory-policy}), as read at the host's latest check.
 *
 * @param status the verdict
 * @param reason why, in words
 * @author Lease contributors
 * @since 0.1.0
 */
public record RedisDurability(Status status, String reason) {

	/**
	 * The verdict on a server's durability.
	 */
	public enum Status {

		/**
		 * The append-only file is on, synced always or every second, and the server never
		 * evicts: neither a restart of the server nor a full memory ends a grant.
		 */
		DURABLE,

		/**
		 * A restart of the server, or eviction, can lose grants.
		 */
		NOT_DURABLE,

		/**
		 * The server did not say, for example because {@code CONFIG} is renamed or denied
		 * by an ACL.
		 */
		UNKNOWN

	}

}
