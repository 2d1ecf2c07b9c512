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

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
import org.springframework.util.Assert;

import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.actuate.endpoint.LeasesDescriptor.LeaseDescriptor;

/**
 * {@link Endpoint @Endpoint} listing the grants that stand now, as the host reads them, a
 * page at a time, and reading one key's grant exactly. Read-only: ending a grant by an
 * administrator's action would break Invariant 2.2, so there is no write or delete
 * operation.
 * <p>
 * Keys are printed as text when they are valid UTF-8, else as {@value #BASE64_MARKER}
 * followed by their Base64 encoding (also used for a text key that itself starts with the
 * marker). Holders are shown per {@code management.endpoint.leases.show-values}.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@Endpoint(id = "leases")
public class LeasesEndpoint {

	/** Marker in front of a key or holder printed as Base64. */
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
	 * @param limit the most grants to list; {@value #DEFAULT_LIMIT} when absent, at most
	 * {@value #MAXIMUM_LIMIT}
	 * @param cursor the {@code next} of the page before, or absent for the first page
	 * @return the page, with the cursor of the next one
	 */
	@ReadOperation
	public LeasesDescriptor leases(SecurityContext securityContext, @Nullable Integer limit, @Nullable String cursor) {
		int bounded = (limit != null) ? limit : DEFAULT_LIMIT;
		if (bounded <= 0) {
			// a caller's mistake, answered 400 with the reason, not a server error
			throw new InvalidEndpointRequestException("'limit' must be positive, but was " + bounded,
					"'limit' must be positive");
		}
		GrantsPage page;
		try {
			page = this.host.grants(cursor, Math.min(bounded, MAXIMUM_LIMIT));
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), "'cursor' is not a cursor of this host");
		}
		boolean showHolders = this.showValues.isShown(securityContext, this.roles);
		List<LeaseDescriptor> leases = page.grants()
			.stream()
			.map((lease) -> describe(lease, showHolders, page.remaining(lease)))
			.toList();
		return new LeasesDescriptor(leases, page.readAt(), page.next());
	}

	/**
	 * Describe the grant that stands on one key, read exactly, however many grants stand.
	 * @param securityContext the caller, who may or may not see holders
	 * @param key the key, as text or as {@value #BASE64_MARKER} and Base64
	 * @return the grant, or {@code null} (404) when none stands on the key
	 */
	@ReadOperation
	public @Nullable LeaseDescriptor lease(SecurityContext securityContext, @Selector String key) {
		LeaseKey wanted = parse(key);
		boolean showHolders = this.showValues.isShown(securityContext, this.roles);
		return this.host.grant(wanted)
			.map((lease) -> describe(lease, showHolders, this.host.remaining(lease.key(), lease.holder()).orElse(null)))
			.orElse(null);
	}

	private LeaseDescriptor describe(Lease lease, boolean showHolder, @Nullable Duration remaining) {
		String holder = (showHolder) ? display(lease.holder().bytes()) : "******";
		return new LeaseDescriptor(display(lease.key().bytes()), holder, lease.expiresAt(), remaining);
	}

	static LeaseKey parse(String key) {
		if (key.startsWith(BASE64_MARKER)) {
			return LeaseKey.of(Base64.getDecoder().decode(key.substring(BASE64_MARKER.length())));
		}
		return LeaseKey.of(key);
	}

	static String display(byte[] bytes) {
		try {
			String text = StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes))
				.toString();
			if (!text.startsWith(BASE64_MARKER)) {
				return text;
			}
		}
		catch (CharacterCodingException ex) {
			// not text: Base64 below
		}
		return BASE64_MARKER + Base64.getEncoder().encodeToString(bytes);
	}

}
