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

import java.time.Duration;

/**
 * The declared cross-seam allowance between the granting host's clock and one fenced
 * party's clock; one allowance per fenced party (Invariant 6).
 *
 * @param value the allowance, zero or positive
 * @author Lease contributors
 * @since 0.1.0
 */
public record Allowance(Duration value) {

	public Allowance {
		if (Checks.notNull(value, "allowance").isNegative()) {
			throw new IllegalArgumentException("'allowance' must not be negative, but was " + value);
		}
	}

	/**
	 * Create an allowance.
	 * @param value the allowance, zero or positive
	 * @return the allowance
	 */
	public static Allowance of(Duration value) {
		return new Allowance(value);
	}

}
