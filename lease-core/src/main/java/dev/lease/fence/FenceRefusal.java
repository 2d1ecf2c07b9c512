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

package dev.lease.fence;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseKey;

/**
 * One work item a fenced party refused because its fence had passed on that party's own
 * clock.
 *
 * @param party the fenced party that refused the work
 * @param key the key of the grant the fence was minted from, when the party knows it
 * @param fence the fence instant the work was carried with
 * @param margin the fence margin ({@code expiresAt - fence}), when the party knows it
 * @param reading the party's own clock reading at the judgement, when known
 * @author Lease contributors
 * @since 0.1.0
 */
public record FenceRefusal(String party, @Nullable LeaseKey key, Instant fence, @Nullable Duration margin,
		@Nullable Instant reading) {

	/**
	 * Return how far past the fence the party's reading was.
	 * @return the lateness, or {@code null} when the reading is unknown
	 */
	public @Nullable Duration late() {
		return (this.reading != null) ? Duration.between(this.fence, this.reading) : null;
	}

}
