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

import java.sql.SQLException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Interrupts}.
 *
 * @author Lease contributors
 */
class InterruptsTests {

	@Test
	void anInterruptAmongTheCausesIsAnInterrupt() {
		SQLException pool = new SQLException("Interrupted during connection acquisition", new InterruptedException());
		assertThat(Interrupts.causedByInterrupt(new IllegalStateException("wrapped", pool))).isTrue();
	}

	@Test
	void aFailureWithoutAnInterruptIsNot() {
		assertThat(Interrupts.causedByInterrupt(new SQLException("Connection refused"))).isFalse();
		assertThat(Interrupts.causedByInterrupt(new IllegalStateException("outer", new RuntimeException()))).isFalse();
	}

}
