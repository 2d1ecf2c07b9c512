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

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.util.Assert;

/**
 * {@link EndpointWebExtension @EndpointWebExtension} for the {@link LeasesEndpoint} that
 * answers a bad {@code limit} or {@code cursor} with {@code 400} and a body that gives
 * the reason: the web layer otherwise answers the endpoint's
 * {@link InvalidEndpointRequestException} with a bare {@code 400}, its reason kept out of
 * the error body unless {@code server.error.include-message} is set.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@EndpointWebExtension(endpoint = LeasesEndpoint.class)
public class LeasesEndpointWebExtension {

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
	 * @return the page, or {@code 400} with {@code error}, {@code message} and
	 * {@code status} when the request is not valid
	 */
	@ReadOperation
	public WebEndpointResponse<Object> leases(SecurityContext securityContext, @Nullable Integer limit,
			@Nullable String cursor) {
		try {
			return new WebEndpointResponse<>(this.delegate.leases(securityContext, limit, cursor));
		}
		catch (InvalidEndpointRequestException ex) {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("status", WebEndpointResponse.STATUS_BAD_REQUEST);
			body.put("error", "Bad Request");
			body.put("message", ex.getReason());
			return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_BAD_REQUEST);
		}
	}

}
