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

package dev.lease.actuate.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * Description of one page of the grants that stand, as the {@link LeasesEndpoint} answers
 * them.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeasesDescriptor implements OperationResponseBody {

	private final List<LeaseDescriptor> leases;

	private final Instant readAt;

	private final @Nullable String next;

	LeasesDescriptor(List<LeaseDescriptor> leases, Instant readAt, @Nullable String next) {
		this.leases = leases;
		this.readAt = readAt;
		this.next = next;
	}

	public List<LeaseDescriptor> getLeases() {
		return this.leases;
	}

	/**
	 * Return the one reading of the host's clock the page was read at, from which each
	 * remaining term is counted.
	 * @return the reading
	 */
	public Instant getReadAt() {
		return this.readAt;
	}

	/**
	 * Return the cursor of the next page, to pass as {@code cursor}.
	 * @return the cursor, or {@code null} when this page is the last
	 */
	public @Nullable String getNext() {
		return this.next;
	}

	/**
	 * Description of one grant.
	 */
	public static final class LeaseDescriptor implements OperationResponseBody {

		private final String key;

		private final String holder;

		private final Instant expiresAt;

		private final @Nullable Duration remaining;

		LeaseDescriptor(String key, String holder, Instant expiresAt, @Nullable Duration remaining) {
			this.key = key;
			this.holder = holder;
			this.expiresAt = expiresAt;
			this.remaining = remaining;
		}

		public String getKey() {
			return this.key;
		}

		public String getHolder() {
			return this.holder;
		}

		public Instant getExpiresAt() {
			return this.expiresAt;
		}

		public @Nullable Duration getRemaining() {
			return this.remaining;
		}

	}

}
