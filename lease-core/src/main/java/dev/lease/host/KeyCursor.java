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

package dev.lease.host;

import java.util.Base64;

import dev.lease.LeaseKey;

/**
 * The cursor of a host that lists its grants in an order of its keys (by key, or by a
 * hash of the key and then the key): the last key a page looked at, in URL-safe Base64,
 * after which the next page starts.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class KeyCursor {

	private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

	private KeyCursor() {
	}

	/**
	 * Return the cursor of the page after the given key.
	 * @param lastListed the last key a page listed
	 * @return the cursor
	 */
	public static String of(LeaseKey lastListed) {
		return ENCODER.encodeToString(lastListed.bytes());
	}

	/**
	 * Return the key a cursor names.
	 * @param cursor a cursor answered by {@link #of(LeaseKey)}
	 * @return the key after which the next page starts
	 * @throws IllegalArgumentException if the text is not such a cursor
	 */
	public static LeaseKey key(String cursor) {
		try {
			return LeaseKey.of(Base64.getUrlDecoder().decode(cursor));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("'cursor' is not a cursor this host answered: '" + cursor + "'", ex);
		}
	}

}
