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

package dev.lease;

import java.util.Arrays;

/**
 * The opaque value a lease protects: a non-empty byte string of at most
 * {@value #MAXIMUM_BYTES} bytes, compared by byte identity and never normalised (Identity
 * 1 to 4). Two values that differ by one byte are two leases.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseKey extends OpaqueBytes implements Comparable<LeaseKey> {

	/**
	 * Largest encoded size of a key, in bytes; chosen to fit every supported database's
	 * index.
	 */
	public static final int MAXIMUM_BYTES = 1024;

	private LeaseKey(byte[] bytes) {
		super(bytes);
	}

	/**
	 * Create a key from the UTF-8 encoding of the given text, exactly as given.
	 * @param value the text
	 * @return the key
	 * @throws IllegalArgumentException if the value is null, empty or longer than
	 * {@value #MAXIMUM_BYTES} bytes in UTF-8
	 */
	public static LeaseKey of(String value) {
		return new LeaseKey(utf8(value, "key", MAXIMUM_BYTES));
	}

	/**
	 * Create a key from a copy of the given bytes.
	 * @param value the bytes
	 * @return the key
	 * @throws IllegalArgumentException if the value is null, empty or longer than
	 * {@value #MAXIMUM_BYTES} bytes
	 */
	public static LeaseKey of(byte[] value) {
		return new LeaseKey(copy(value, "key", MAXIMUM_BYTES));
	}

	/**
	 * Compare keys by their bytes, each read as unsigned, the order in which a host that
	 * pages by key lists them; consistent with {@link #equals(Object)}.
	 * @param other the other key
	 * @return negative, zero or positive as this key sorts before, with or after the
	 * other
	 */
	@Override
	public int compareTo(LeaseKey other) {
		return Arrays.compareUnsigned(this.bytes, other.bytes);
	}

}
