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

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The shared rules of {@link LeaseKey} and {@link LeaseHolder}: opaque, non-empty,
 * bounded byte strings compared byte for byte (Identity 2 to 4).
 *
 * @author Lease contributors
 */
final class OpaqueBytes {

	private OpaqueBytes() {
	}

	static byte[] checked(byte[] bytes, String name, int maximumBytes) {
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

	static byte[] utf8(String value, String name) {
		// No trim, no case fold, no Unicode normalisation: the bytes are the identity
		// (Identity 3).
		return Checks.notNull(value, name).getBytes(StandardCharsets.UTF_8);
	}

	// Text for logs and the endpoint: the UTF-8 reading where the bytes are valid UTF-8,
	// else 0x and hex, so that two different values never print alike.
	static String display(byte[] bytes) {
		try {
			String text = StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes))
				.toString();
			if (!text.startsWith("0x") && text.chars().noneMatch(Character::isISOControl)) {
				return text;
			}
		}
		catch (CharacterCodingException ex) {
			// fall through to hex
		}
		return "0x" + HexFormat.of().formatHex(bytes);
	}

}
