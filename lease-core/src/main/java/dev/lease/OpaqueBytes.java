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

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link LeaseKey} and a {@link LeaseHolder} are alike: opaque, non-empty, bounded
 * byte strings compared byte for byte (Identity 2 to 4). Only those two extend it, and a
 * key never equals a holder of the same bytes (Identity 1).
 * <p>
 * Public only so that the methods the two share are declared once on a public type; no
 * other type can extend it.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public abstract sealed class OpaqueBytes permits LeaseKey, LeaseHolder {

	// Never handed out: the value's identity must not change under it.
	final byte[] bytes;

	OpaqueBytes(byte[] bytes) {
		this.bytes = bytes;
	}

	/**
	 * Return a copy of this value's bytes.
	 * @return the bytes
	 */
	public byte[] bytes() {
		return this.bytes.clone();
	}

	/**
	 * Return the number of bytes of this value.
	 * @return the length
	 */
	public int length() {
		return this.bytes.length;
	}

	/**
	 * Return the UTF-8 reading of this value; lossy where the bytes are not valid UTF-8.
	 * @return the text
	 */
	public String asString() {
		return new String(this.bytes, StandardCharsets.UTF_8);
	}

	/**
	 * Return the text this value's bytes encode, where they are valid UTF-8: exactly the
	 * text it was made from, if it was made from text.
	 * @return the text, or empty where the bytes are not valid UTF-8
	 */
	public Optional<String> text() {
		return Optional.ofNullable(strictUtf8(this.bytes));
	}

	// A key never equals a holder of the same bytes (Identity 1).
	@Override
	public boolean equals(Object obj) {
		return (this == obj) || (obj != null && obj.getClass() == getClass()
				&& Arrays.equals(this.bytes, ((OpaqueBytes) obj).bytes));
	}

	@Override
	public int hashCode() {
		return Arrays.hashCode(this.bytes);
	}

	@Override
	public String toString() {
		return display(this.bytes);
	}

	// No trim, no case fold, no Unicode normalisation: the bytes are the identity
	// (Identity 3).
	static byte[] utf8(String value, String name, int maximumBytes) {
		return checked(Checks.notNull(value, name).getBytes(StandardCharsets.UTF_8), name, maximumBytes);
	}

	// Checked before the copy, so that null is refused as null; copied so that the
	// caller's array can no longer change the value.
	static byte[] copy(byte[] value, String name, int maximumBytes) {
		return checked(value, name, maximumBytes).clone();
	}

	private static byte[] checked(byte[] bytes, String name, int maximumBytes) {
		Checks.notNull(bytes, name);
		if (bytes.length == 0) {
			throw new IllegalArgumentException("'" + name + "' must not be empty");
		}
		if (bytes.length > maximumBytes) {
			throw new IllegalArgumentException(
					"'" + name + "' must be at most " + maximumBytes + " bytes, but was " + bytes.length + " bytes");
		}
		return bytes;
	}

	// Text for logs: the UTF-8 reading where the bytes are valid UTF-8, else 0x and hex,
	// so that two different values never print alike.
	static String display(byte[] bytes) {
		String text = strictUtf8(bytes);
		if (text != null && !text.startsWith("0x") && text.chars().noneMatch(Character::isISOControl)) {
			return text;
		}
		return "0x" + HexFormat.of().formatHex(bytes);
	}

	// Decoding replaces each malformed sequence with U+FFFD, which encodes to other
	// bytes: the text encodes back to the same bytes only where they are valid UTF-8.
	private static @Nullable String strictUtf8(byte[] bytes) {
		String text = new String(bytes, StandardCharsets.UTF_8);
		return Arrays.equals(text.getBytes(StandardCharsets.UTF_8), bytes) ? text : null;
	}

}
