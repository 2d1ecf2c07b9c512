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
import java.util.Base64;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseKey;

/**
 * The one mapping from a {@link LeaseKey} to its Redis key, {@code <prefix>{<base64url of
 * the key bytes>}}: injective (two different keys never meet), and in one cluster hash
 * slot (the braces are a hash tag).
 *
 * @author Lease contributors
 */
final class RedisKeyCodec {

	private static final int KEY_PREFIX_MAXIMUM = 128;

	private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

	private final String keyPrefix;

	private final byte[] keyPrefixBytes;

	RedisKeyCodec(String keyPrefix) {
		this.keyPrefix = keyPrefix;
		this.keyPrefixBytes = keyPrefix.getBytes(StandardCharsets.US_ASCII);
	}

	// <prefix>{<base64url>}, written straight into one array: this runs on every call.
	byte[] redisKey(LeaseKey key) {
		byte[] encoded = BASE64.encode(key.bytes());
		byte[] redisKey = new byte[this.keyPrefixBytes.length + encoded.length + 2];
		System.arraycopy(this.keyPrefixBytes, 0, redisKey, 0, this.keyPrefixBytes.length);
		redisKey[this.keyPrefixBytes.length] = '{';
		System.arraycopy(encoded, 0, redisKey, this.keyPrefixBytes.length + 1, encoded.length);
		redisKey[redisKey.length - 1] = '}';
		return redisKey;
	}

	// The lease key of a Redis key under the prefix, or null for any other key.
	@Nullable LeaseKey leaseKey(byte[] redisKey) {
		String text = new String(redisKey, StandardCharsets.US_ASCII);
		if (!text.startsWith(this.keyPrefix + "{") || !text.endsWith("}")) {
			return null;
		}
		try {
			return LeaseKey
				.of(Base64.getUrlDecoder().decode(text.substring(this.keyPrefix.length() + 1, text.length() - 1)));
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	// The SCAN pattern of every lease key under the prefix.
	String pattern() {
		return this.keyPrefix + "{*}";
	}

	static String validateKeyPrefix(String keyPrefix) {
		if (keyPrefix == null || keyPrefix.isEmpty() || keyPrefix.length() > KEY_PREFIX_MAXIMUM) {
			throw new IllegalArgumentException(
					"'keyPrefix' must be 1 to " + KEY_PREFIX_MAXIMUM + " characters, but was '" + keyPrefix + "'");
		}
		for (int i = 0; i < keyPrefix.length(); i++) {
			char c = keyPrefix.charAt(i);
			if (c <= ' ' || c > '~' || "{}*?[]\\".indexOf(c) >= 0) {
				throw new IllegalArgumentException("'keyPrefix' must be printable ASCII without spaces, braces,"
						+ " or the glob characters * ? [ ] \\, but was '" + keyPrefix + "'");
			}
		}
		return keyPrefix;
	}

}
