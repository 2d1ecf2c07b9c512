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
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.util.Assert;

import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.OpaqueBytes;
import dev.lease.QueuedTakes;
import dev.lease.actuate.endpoint.LeasesDescriptor.LeaseDescriptor;

/**
 * {@link Endpoint @Endpoint} listing the grants that stand now, as the host reads them, a
 * page at a time, and reading one key's grant exactly. Read-only: ending a grant by an
 * administrator's action would break Invariant 2.2, so there is no write or delete
 * operation.
 * <p>
 * Keys are printed as text when they are valid UTF-8 and a path carries them as they are,
 * else as {@value #BASE64URL_MARKER} followed by their URL-safe Base64 encoding without
 * padding (also used for a text key that itself starts with a marker). Each printed key
 * reads its grant back at {@code /actuator/leases/<printed key>}, {@code /} included: the
 * selector takes all the remaining path, and a segment's percent-encoded {@code %2F}
 * decodes to a {@code /} of the key. Holders are shown per
 * {@code management.endpoint.leases.show-values}.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@Endpoint(id = "leases")
public class LeasesEndpoint {

	/**
	 * Marker in front of a key or holder printed as URL-safe Base64 without padding.
	 * @since 0.1.0
	 */
	public static final String BASE64URL_MARKER = "base64url:";

	/**
	 * Marker in front of a key in the standard Base64 form earlier versions printed; such
	 * a key is still read, never printed.
	 */
	public static final String BASE64_MARKER = "base64:";

	/** Grants listed when no limit is given. */
	public static final int DEFAULT_LIMIT = 100;

	/** Most grants listed in one page. */
	public static final int MAXIMUM_LIMIT = 10_000;

	private final LeaseHost host;

	private final Show showValues;

	private final Set<String> roles;

	/**
	 * Create an endpoint over the given host.
	 * @param host the host
	 * @param showValues when holders are shown
	 * @param roles the roles that may see holders when shown {@link Show#WHEN_AUTHORIZED}
	 */
	public LeasesEndpoint(LeaseHost host, Show showValues, Set<String> roles) {
		Assert.notNull(host, "'host' must not be null");
		Assert.notNull(showValues, "'showValues' must not be null");
		this.host = host;
		this.showValues = showValues;
		this.roles = Set.copyOf(roles);
	}

	/**
	 * List one page of the grants that stand, each with its remaining term from the
	 * page's one reading of the host's clock: the host is asked once, whatever the number
	 * of grants.
	 * @param securityContext the caller, who may or may not see holders
	 * @param limit the most grants to list, from 1 to {@value #MAXIMUM_LIMIT};
	 * {@value #DEFAULT_LIMIT} when absent
	 * @param cursor the {@code next} of the page before, or absent for the first page
	 * @return the page, with the cursor of the next one
	 */
	@ReadOperation
	public LeasesDescriptor leases(SecurityContext securityContext, @Nullable Integer limit, @Nullable String cursor) {
		int bounded = (limit != null) ? limit : DEFAULT_LIMIT;
		if (bounded < 1 || bounded > MAXIMUM_LIMIT) {
			// a caller's mistake, answered 400 with the reason, not a server error nor a
			// page of another size than asked
			String reason = "'limit' must be between 1 and " + MAXIMUM_LIMIT + ", but was " + bounded;
			throw new InvalidEndpointRequestException(reason, reason);
		}
		GrantsPage page;
		try {
			page = this.host.grants(cursor, bounded);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), "'cursor' is not a cursor of this host");
		}
		boolean showHolders = this.showValues.isShown(securityContext, this.roles);
		List<LeaseDescriptor> leases = page.grants()
			.stream()
			.map((lease) -> describe(lease, showHolders, page.grantedAt(lease).orElse(null), page.remaining(lease),
					null))
			.toList();
		return new LeasesDescriptor(leases, page.readAt(), page.next(), null);
	}

	/**
	 * Describe the grant that stands on one key, read exactly, however many grants stand,
	 * with how many takes wait for the key when the host can tell: a snapshot read just
	 * after the grant.
	 * @param securityContext the caller, who may or may not see holders
	 * @param key the key as the listing prints it, in the path segments it spans when it
	 * contains {@code /}
	 * @return the grant, or {@code null} (404) when none stands on the key
	 */
	@ReadOperation
	public @Nullable LeaseDescriptor lease(SecurityContext securityContext,
			@Selector(match = Match.ALL_REMAINING) String... key) {
		LeaseKey wanted = parse(String.join("/", key));
		boolean showHolders = this.showValues.isShown(securityContext, this.roles);
		return this.host.grant(wanted)
			.map((lease) -> describe(lease, showHolders, this.host.grantedAt(lease).orElse(null),
					this.host.remaining(lease.key(), lease.holder()).orElse(null),
					this.host.waiting(wanted).orElse(null)))
			.orElse(null);
	}

	private LeaseDescriptor describe(Lease lease, boolean showHolder, @Nullable Instant grantedAt,
			@Nullable Duration remaining, @Nullable QueuedTakes queuedTakes) {
		String holder = (showHolder) ? display(lease.holder()) : "******";
		return new LeaseDescriptor(display(lease.key()), holder, lease.expiresAt(), grantedAt, remaining,
				(remaining != null) ? remaining.toMillis() : null, (queuedTakes != null) ? queuedTakes.count() : null,
				(queuedTakes != null) ? queuedTakes.since() : null);
	}

	static LeaseKey parse(String key) {
		try {
			if (key.startsWith(BASE64URL_MARKER)) {
				return LeaseKey.of(Base64.getUrlDecoder().decode(key.substring(BASE64URL_MARKER.length())));
			}
			if (key.startsWith(BASE64_MARKER)) {
				return LeaseKey.of(Base64.getDecoder().decode(key.substring(BASE64_MARKER.length())));
			}
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidEndpointRequestException("'" + key + "' is not valid Base64: " + ex.getMessage(),
					"the key is not valid Base64 after its marker");
		}
		return LeaseKey.of(key);
	}

	static String display(OpaqueBytes value) {
		String text = value.text().orElse(null);
		if (text != null && !text.startsWith(BASE64URL_MARKER) && !text.startsWith(BASE64_MARKER)
				&& carriedByAPath(text)) {
			return text;
		}
		return BASE64URL_MARKER + Base64.getUrlEncoder().withoutPadding().encodeToString(value.bytes());
	}

	// The web selector drops empty segments and trims each one: a key that would lose
	// a character that way is printed in Base64 so that the printed form reads it back.
	// An empty key splits into one empty segment.
	private static boolean carriedByAPath(String text) {
		return Arrays.stream(text.split("/", -1))
			.noneMatch((segment) -> segment.isEmpty() || !segment.equals(segment.trim()));
	}

}
