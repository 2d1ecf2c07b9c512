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

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link LeaseKey} and {@link LeaseHolder}.
 *
 * @author Lease contributors
 */
class LeaseKeyTests {

	@Test
	@DisplayName("Identity 2, 3: keys are equal exactly when their bytes are, never normalised")
	void keysCompareByBytes() {
		assertThat(LeaseKey.of("order:1")).isEqualTo(LeaseKey.of("order:1".getBytes(StandardCharsets.UTF_8)));
		assertThat(LeaseKey.of("a")).isNotEqualTo(LeaseKey.of("A"));
		assertThat(LeaseKey.of("a")).isNotEqualTo(LeaseKey.of(" a"));
		assertThat(LeaseKey.of("\u00e9")).isNotEqualTo(LeaseKey.of("e\u0301"));
		assertThat(LeaseHolder.of("h")).isNotEqualTo(LeaseHolder.of("h\u0000"));
	}

	@Test
	@DisplayName("Identity 1: a key and a holder of the same bytes are different values")
	void keyNeverEqualsHolder() {
		assertThat(LeaseKey.of("a")).isNotEqualTo(LeaseHolder.of("a"));
		assertThat(LeaseHolder.of("a")).isNotEqualTo(LeaseKey.of("a"));
		assertThat(LeaseHolder.of("h\u00e9").asString()).isEqualTo("h\u00e9");
		assertThat(LeaseHolder.of("h\u00e9").bytes()).hasSize(3);
	}

	@Test
	@DisplayName("A key's and a holder's public methods are callable by reflection from outside the package")
	void publicMethodsAreReflectivelyCallable() throws Exception {
		// SpEL and JSON binders find methods by reflection: the type that declares each
		// must be public, or the call fails outside the package.
		for (Object value : new Object[] { LeaseKey.of("k\u00e9"), LeaseHolder.of("k\u00e9") }) {
			for (String name : new String[] { "bytes", "length", "asString" }) {
				Method method = value.getClass().getMethod(name);
				assertThat(Modifier.isPublic(method.getDeclaringClass().getModifiers())).as(name).isTrue();
			}
			assertThat(value.getClass().getMethod("asString").invoke(value)).isEqualTo("k\u00e9");
			assertThat(value.getClass().getMethod("length").invoke(value)).isEqualTo(3);
		}
		assertThat(LeaseKey.of("a")).hasSameHashCodeAs(LeaseKey.of("a")).isNotEqualTo(null);
	}

	@Test
	@DisplayName("Identity 2: a key copies the bytes it is given and hands out copies")
	void keyCopiesItsBytes() {
		byte[] bytes = { 1, 2, 3 };
		LeaseKey key = LeaseKey.of(bytes);
		bytes[0] = 9;
		key.bytes()[1] = 9;
		assertThat(key.bytes()).containsExactly(1, 2, 3);
	}

	@Test
	@DisplayName("Keys and holders print as text when valid UTF-8 and as hex otherwise, so two never print alike")
	void printsTextOrHex() {
		assertThat(LeaseKey.of("order:1")).hasToString("order:1");
		assertThat(LeaseKey.of(new byte[] { (byte) 0xC3, 0x28 })).hasToString("0xc328");
		assertThat(LeaseKey.of("a\u0000")).hasToString("0x6100");
		assertThat(LeaseHolder.of("0x61")).hasToString("0x30783631");
	}

	@Test
	@DisplayName("Keys and holders give their text only where their bytes are valid UTF-8, exactly as encoded")
	void giveTheirTextOnlyWhereValidUtf8() {
		assertThat(LeaseKey.of("order:\u00e9 1 ")).extracting(LeaseKey::text).isEqualTo(Optional.of("order:\u00e9 1 "));
		assertThat(LeaseHolder.of("0x61")).extracting(LeaseHolder::text).isEqualTo(Optional.of("0x61"));
		assertThat(LeaseKey.of(new byte[] { (byte) 0xC3, 0x28 }).text()).isEmpty();
		assertThat(LeaseHolder.of(new byte[] { (byte) 0xFF }).text()).isEmpty();
	}

	@Test
	@DisplayName("Empty, oversized and null keys and holders are refused with the reason")
	void badValuesAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseKey.of(new byte[0]))
			.withMessage("'key' must not be empty");
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseHolder.of("x".repeat(1025)))
			.withMessage("'holder' must be at most 1024 bytes, but was 1025 bytes");
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseKey.of((String) null))
			.withMessage("'key' must not be null");
		assertThat(LeaseKey.of("\u00e9".repeat(512)).length()).isEqualTo(1024);
	}

}
