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

import java.time.Instant;

/**
 * One grant as the host holds it: exclusive standing over a key, for a holder, until an
 * instant on the granting host's clock (Fence 1). Two grants on one pair are told apart
 * by {@code expiresAt} and by nothing else (Identity 5).
 *
 * @param key the key the grant protects
 * @param holder the holder the host holds the key for
 * @param expiresAt the instant, on the granting host's clock, at which the grant ends
 * @author Lease contributors
 * @since 0.1.0
 */
public record Lease(LeaseKey key, LeaseHolder holder, Instant expiresAt) {

	public Lease {
		Checks.notNull(key, "key");
		Checks.notNull(holder, "holder");
		Checks.notNull(expiresAt, "expiresAt");
	}

}
