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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link RedisGrantsCursor}.
 *
 * @author Lease contributors
 */
class RedisGrantsCursorTests {

	@Test
	void cursorWithPendingKeysIsReadBackAsWritten() {
		byte[] first = "lease:{a2V5}".getBytes(StandardCharsets.US_ASCII);
		byte[] second = { 0, (byte) 0xff, '.', '{' };
		RedisGrantsCursor cursor = new RedisGrantsCursor(-1, "18446744073709551615", List.of(first, second));
		RedisGrantsCursor read = RedisGrantsCursor.parse(cursor.text());
		assertThat(read).isNotNull();
		assertThat(read.node()).isEqualTo(-1);
		assertThat(read.scan()).isEqualTo("18446744073709551615");
		assertThat(read.pending()).containsExactly(first, second);
	}

	@Test
	void cursorWhoseScanCameRoundKeepsItsPendingKeys() {
		RedisGrantsCursor cursor = new RedisGrantsCursor(-1, "", List.of(new byte[] { 1 }));
		RedisGrantsCursor read = RedisGrantsCursor.parse(cursor.text());
		assertThat(read).isNotNull();
		assertThat(read.scanDone()).isTrue();
		assertThat(read.pending()).hasSize(1);
	}

	@Test
	void clusterCursorNamesItsNodeAndLastKey() {
		byte[] last = "lease:{a2V5}".getBytes(StandardCharsets.US_ASCII);
		RedisGrantsCursor read = RedisGrantsCursor.parse(new RedisGrantsCursor(2, "0", List.of(last)).text());
		assertThat(read).isNotNull();
		assertThat(read.node()).isEqualTo(2);
		assertThat(read.pending()).containsExactly(last);
	}

	@Test
	void textThatNoHostAnsweredIsRefused() {
		assertThat(RedisGrantsCursor.parse(null)).isNull();
		for (String text : new String[] { "", "x", "-2.0", "0.abc", "0.1.!!" }) {
			assertThatIllegalArgumentException().as(text).isThrownBy(() -> RedisGrantsCursor.parse(text));
		}
	}

}
