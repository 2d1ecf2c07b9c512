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

import dev.lease.QueuedTakes;

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

	private final @Nullable Long total;

	LeasesDescriptor(List<LeaseDescriptor> leases, Instant readAt, @Nullable String next, @Nullable Long total) {
		this.leases = leases;
		this.readAt = readAt;
		this.next = next;
		this.total = total;
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
	 * Return how many grants stand on the whole host, when the host counts them cheaply.
	 * None does yet: Redis and JDBC would read every stored key to count, so the total is
	 * left out rather than costing each page a pass over the store.
	 * @return the total, or {@code null} when it was not counted
	 */
	public @Nullable Long getTotal() {
		return this.total;
	}

	/**
	 * Return whether {@link #getTotal() total} was counted, so that a caller tells a
	 * total left out from a field it does not know.
	 * @return whether the page carries the total
	 */
	public boolean isTotalCounted() {
		return this.total != null;
	}

	/**
	 * Description of one grant.
	 */
	public static final class LeaseDescriptor implements OperationResponseBody {

		private final String key;

		private final String holder;

		private final Instant expiresAt;

		private final @Nullable Instant grantedAt;

		private final @Nullable Duration remaining;

		private final @Nullable QueuedTakes queuedTakes;

		LeaseDescriptor(String key, String holder, Instant expiresAt, @Nullable Instant grantedAt,
				@Nullable Duration remaining, @Nullable QueuedTakes queuedTakes) {
			this.key = key;
			this.holder = holder;
			this.expiresAt = expiresAt;
			this.grantedAt = grantedAt;
			this.remaining = remaining;
			this.queuedTakes = queuedTakes;
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

		/**
		 * Return when the grant began on the host's clock, as the host keeps it (Grants
		 * 8); on a host that keeps none, known only for a grant taken through this
		 * application's observed host and read exactly.
		 * @return the instant, or {@code null} when it is not known
		 */
		public @Nullable Instant getGrantedAt() {
			return this.grantedAt;
		}

		/**
		 * Return the remaining term as an ISO-8601 duration, such as {@code PT29.9S}.
		 * @return the remaining term, or {@code null} when the host answered none
		 */
		public @Nullable Duration getRemaining() {
			return this.remaining;
		}

		/**
		 * Return the remaining term in whole milliseconds, rounded down, for a reader or
		 * a script that compares numbers.
		 * @return the remaining term, or {@code null} when the host answered none
		 */
		public @Nullable Long getRemainingMillis() {
			return (this.remaining != null) ? this.remaining.toMillis() : null;
		}

		/**
		 * Return how many takes wait for the key, as the host read them just after the
		 * grant: a snapshot. Shown by the read of one key only, so that a page of the
		 * listing costs no question per key.
		 * @return how many wait, or {@code null} when the host cannot tell or the grant
		 * was listed
		 */
		public @Nullable Integer getWaiting() {
			return (this.queuedTakes != null) ? this.queuedTakes.count() : null;
		}

		/**
		 * Return when the longest-waiting take for the key arrived, on the host's clock.
		 * @return the instant, or {@code null} when nobody waits or the host does not
		 * know it
		 */
		public @Nullable Instant getWaitingSince() {
			return (this.queuedTakes != null) ? this.queuedTakes.since() : null;
		}

	}

}
