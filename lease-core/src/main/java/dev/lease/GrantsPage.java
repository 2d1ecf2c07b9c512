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
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * One page of the grants that stand on a host, read at one reading of the host's clock
 * ({@link LeaseHost#grants(String, int)}).
 *
 * @param grants the grants listed, each standing at {@code readAt}: its {@code expiresAt}
 * lies after it
 * @param readAt the one reading of the host's clock the page was read at, taken no later
 * than the page was answered
 * @param next the opaque cursor of the next page, or {@code null} when the pass is done
 * @param starts when each grant listed began, by key, on the host's clock (Grants 8):
 * empty where the host keeps no starts, and without the grants whose start it lacks
 * @author Lease contributors
 * @since 0.1.0
 */
public record GrantsPage(List<Lease> grants, Instant readAt, @Nullable String next, Map<LeaseKey, Instant> starts) {

	public GrantsPage {
		grants = List.copyOf(Checks.notNull(grants, "grants"));
		Checks.notNull(readAt, "readAt");
		starts = Map.copyOf(Checks.notNull(starts, "starts"));
	}

	/**
	 * Create a page of a host that keeps no grant's start.
	 * @param grants the grants listed
	 * @param readAt the page's reading of the host's clock
	 * @param next the cursor of the next page, or {@code null}
	 */
	public GrantsPage(List<Lease> grants, Instant readAt, @Nullable String next) {
		this(grants, readAt, next, Map.of());
	}

	/**
	 * Return when a grant of this page began, where the host keeps it.
	 * @param grant a grant of this page
	 * @return its start on the host's clock, or empty when the host kept none
	 */
	public Optional<Instant> grantedAt(Lease grant) {
		Checks.notNull(grant, "grant");
		return Optional.ofNullable(this.starts.get(grant.key()));
	}

	/**
	 * Return the remaining term of a grant of this page as of the page's reading,
	 * computed without asking the host again.
	 * @param grant a grant of this page
	 * @return {@code expiresAt} less {@code readAt}, never negative
	 */
	public Duration remaining(Lease grant) {
		Checks.notNull(grant, "grant");
		Duration remaining = Duration.between(this.readAt, grant.expiresAt());
		return remaining.isNegative() ? Duration.ZERO : remaining;
	}

	/**
	 * Return the cursor of the next page.
	 * @return the cursor, or empty when the pass is done
	 */
	public Optional<String> nextCursor() {
		return Optional.ofNullable(this.next);
	}

}
