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

/**
 * The opaque value naming who holds a lease: a non-empty byte string of at most
 * {@value #MAXIMUM_BYTES} bytes, compared by byte identity and never normalised (Identity
 * 1 to 4). Two values that differ by one byte are two parties.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseHolder extends OpaqueBytes {

	/**
	 * Largest encoded size of a holder, in bytes; chosen to fit every supported
	 * database's index.
	 */
	public static final int MAXIMUM_BYTES = 1024;

	private LeaseHolder(byte[] bytes) {
		super(bytes);
	}

	/**
	 * Create a holder from the UTF-8 encoding of the given text, exactly as given.
	 * @param value the text
	 * @return the holder
	 * @throws IllegalArgumentException if the value is null, empty or longer than
	 * {@value #MAXIMUM_BYTES} bytes in UTF-8
	 */
	public static LeaseHolder of(String value) {
		return new LeaseHolder(utf8(value, "holder", MAXIMUM_BYTES));
	}

	/**
	 * Create a holder from a copy of the given bytes.
	 * @param value the bytes
	 * @return the holder
	 * @throws IllegalArgumentException if the value is null, empty or longer than
	 * {@value #MAXIMUM_BYTES} bytes
	 */
	public static LeaseHolder of(byte[] value) {
		return new LeaseHolder(copy(value, "holder", MAXIMUM_BYTES));
	}

}
