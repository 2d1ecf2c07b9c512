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

package dev.lease.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import dev.lease.actuate.endpoint.LeasesDescriptor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeaseRuntimeHints}.
 *
 * @author Lease contributors
 */
class LeaseRuntimeHintsTests {

	@Test
	void endpointDescriptorsAreRegisteredForBinding() {
		RuntimeHints hints = new RuntimeHints();
		new LeaseRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.reflection().onType(LeasesDescriptor.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(LeasesDescriptor.LeaseDescriptor.class)).accepts(hints);
		for (String getter : new String[] { "key", "holder", "expiresAt", "grantedAt", "remaining", "remainingMillis",
				"waiting", "waitingSince" }) {
			assertThat(RuntimeHintsPredicates.reflection()
				.onMethodInvocation(LeasesDescriptor.LeaseDescriptor.class, getter)).accepts(hints);
		}
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(LeasesDescriptor.class, "leases"))
			.accepts(hints);
	}

}
