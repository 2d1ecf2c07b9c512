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
 * @param leases the grants listed
 * @param readAt the one reading of the host's clock the page was read at, from which each
 * remaining term is counted
 * @param next the cursor of the next page, to pass as {@code cursor}; {@code null} when
 * this page is the last
 * @param total how many grants stand on the whole host, when the host counts them
 * cheaply. None does yet: Redis and JDBC would read every stored key to count, so the
 * total is left out rather than costing each page a pass over the store
 * @author Lease contributors
 * @since 0.1.0
 */
public record LeasesDescriptor(List<LeaseDescriptor> leases, Instant readAt, @Nullable String next,
		@Nullable Long total) implements OperationResponseBody {

	/**
	 * Return whether {@link #total() total} was counted, so that a caller tells a total
	 * left out from a field it does not know.
	 * @return whether the page carries the total
	 */
	public boolean isTotalCounted() {
		return this.total != null;
	}

	/**
	 * Description of one grant.
	 *
	 * @param key the key, as the listing prints it
	 * @param holder the holder, or a mask when holders are not shown
	 * @param expiresAt the grant's instant on the host's clock
	 * @param grantedAt when the grant began on the host's clock, as the host keeps it
	 * (Grants 8); on a host that keeps none, known only for a grant taken through this
	 * application's observed host and read exactly; {@code null} when it is not known
	 * @param remaining the remaining term as an ISO-8601 duration, such as
	 * {@code PT29.9S}; {@code null} when the host answered none
	 * @param remainingMillis the remaining term in whole milliseconds, rounded down, for
	 * a reader or a script that compares numbers
	 * @param waiting how many takes wait for the key, as the host read them just after
	 * the grant: a snapshot, shown by the read of one key only, so that a page of the
	 * listing costs no question per key; {@code null} when the host cannot tell or the
	 * grant was listed
	 * @param waitingSince when the longest-waiting take for the key arrived, on the
	 * host's clock; {@code null} when nobody waits or the host does not know it
	 */
	public record LeaseDescriptor(String key, String holder, Instant expiresAt, @Nullable Instant grantedAt,
			@Nullable Duration remaining, @Nullable Long remainingMillis, @Nullable Integer waiting,
			@Nullable Instant waitingSince) implements OperationResponseBody {

	}

}
