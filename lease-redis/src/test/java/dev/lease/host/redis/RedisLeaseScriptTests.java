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
import java.util.Arrays;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.host.KeyModel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link RedisLeaseScript}: the text it loads and the keys it declares.
 *
 * @author Lease contributors
 */
class RedisLeaseScriptTests {

	@Test
	@DisplayName("Operation 2: the loaded script keeps a handed grant for KeyModel's window, defined once in Java")
	void loadedScriptCarriesTheModelsKeptWindow() {
		String source = new String(new RedisLeaseScript(1000).source(), StandardCharsets.UTF_8);
		assertThat(source).contains("local KEPT = " + KeyModel.HANDED_KEPT_MICROS + "\n")
			.doesNotContain(RedisLeaseScript.KEPT_PLACEHOLDER)
			.doesNotContain("${");
	}

	@Test
	void scriptWithoutThePlaceholderIsRefused() {
		assertThatIllegalStateException().isThrownBy(() -> RedisLeaseScript.substitute("local KEPT = 60000000\n"));
	}

	@Test
	@DisplayName("Cluster: the script declares the key and its three waiters' structures, in the key's hash slot")
	void keysAreTheKeyAndItsWaitersStructures() {
		byte[] key = "lease:{a2V5}".getBytes(StandardCharsets.US_ASCII);
		assertThat(
				Arrays.stream(RedisLeaseScript.keys(key)).map((bytes) -> new String(bytes, StandardCharsets.US_ASCII)))
			.containsExactly("lease:{a2V5}", "lease:{a2V5}:q", "lease:{a2V5}:w", "lease:{a2V5}:h");
	}

}
