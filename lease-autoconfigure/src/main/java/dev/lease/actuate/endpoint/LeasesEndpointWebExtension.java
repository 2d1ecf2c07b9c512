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

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.util.Assert;
import org.springframework.util.MimeType;

import dev.lease.actuate.endpoint.LeasesDescriptor.LeaseDescriptor;

/**
 * {@link EndpointWebExtension @EndpointWebExtension} for the {@link LeasesEndpoint} that
 * answers a bad request ({@code 400}) and a key with no standing grant ({@code 404}) with
 * an RFC 9457 problem body ({@code application/problem+json}: {@code type},
 * {@code title}, {@code status}, {@code detail}) that says what was wrong: the web layer
 * otherwise answers the endpoint's {@link InvalidEndpointRequestException} with a bare
 * {@code 400}, its reason kept out of the error body unless
 * {@code server.error.include-message} is set, and a {@code null} with a {@code 404} and
 * no body.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@EndpointWebExtension(endpoint = LeasesEndpoint.class)
public class LeasesEndpointWebExtension {

	private static final MimeType PROBLEM_JSON = MimeType.valueOf("application/problem+json");

	private final LeasesEndpoint delegate;

	/**
	 * Create a web extension of the given endpoint.
	 * @param delegate the endpoint
	 */
	public LeasesEndpointWebExtension(LeasesEndpoint delegate) {
		Assert.notNull(delegate, "'delegate' must not be null");
		this.delegate = delegate;
	}

	/**
	 * List one page of the grants that stand, as {@link LeasesEndpoint#leases} does.
	 * @param securityContext the caller, who may or may not see holders
	 * @param limit the most grants to list, from 1 to
	 * {@value LeasesEndpoint#MAXIMUM_LIMIT}; {@value LeasesEndpoint#DEFAULT_LIMIT} when
	 * absent
	 * @param cursor the {@code next} of the page before, or absent for the first page
	 * @return the page, or {@code 400} with a problem body when the request is not valid
	 */
	@ReadOperation
	public WebEndpointResponse<Object> leases(SecurityContext securityContext, @Nullable Integer limit,
			@Nullable String cursor) {
		return answer(() -> new WebEndpointResponse<>(this.delegate.leases(securityContext, limit, cursor)));
	}

	/**
	 * Describe the grant that stands on one key, as {@link LeasesEndpoint#lease} does.
	 * @param securityContext the caller, who may or may not see holders
	 * @param key the key as the listing prints it, in the path segments it spans when it
	 * contains {@code /}, or with each {@code /} percent-encoded in one segment
	 * @return the grant, {@code 404} with a problem body naming the key when none stands
	 * on it, or {@code 400} with a problem body when the key cannot be read
	 */
	@ReadOperation
	public WebEndpointResponse<Object> lease(SecurityContext securityContext,
			@Selector(match = Match.ALL_REMAINING) String... key) {
		return answer(() -> {
			LeaseDescriptor lease = this.delegate.lease(securityContext, key);
			if (lease == null) {
				return problem(WebEndpointResponse.STATUS_NOT_FOUND, "Not Found",
						"No grant stands on key '" + String.join("/", key) + "'");
			}
			return new WebEndpointResponse<>(lease);
		});
	}

	// The operation's answer, or 400 with a problem body when the request is not valid.
	private static WebEndpointResponse<Object> answer(Supplier<WebEndpointResponse<Object>> operation) {
		try {
			return operation.get();
		}
		catch (InvalidEndpointRequestException ex) {
			return problem(WebEndpointResponse.STATUS_BAD_REQUEST, "Bad Request", ex.getReason());
		}
	}

	private static WebEndpointResponse<Object> problem(int status, String title, String detail) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("type", "about:blank");
		body.put("title", title);
		body.put("status", status);
		body.put("detail", detail);
		return new WebEndpointResponse<>(body, status, PROBLEM_JSON);
	}

}
