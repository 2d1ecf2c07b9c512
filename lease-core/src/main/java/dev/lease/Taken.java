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
import java.util.Optional;

/**
 * The key was taken: the caller now holds the grant until its {@code expiresAt}.
 *
 * @param lease the grant
 * @author Lease contributors
 * @since 0.1.0
 */
public record Taken(Lease lease) implements TakeResult, TryTakeResult {

	public Taken {
		Checks.notNull(lease, "lease");
	}

	/**
	 * Return the instant, on the granting host's clock, at which the grant ends (Fence
	 * 1).
	 * @return the grant's instant
	 */
	public Instant expiresAt() {
		return this.lease.expiresAt();
	}

	@Override
	public Optional<Lease> granted() {
		return Optional.of(this.lease);
	}

}
