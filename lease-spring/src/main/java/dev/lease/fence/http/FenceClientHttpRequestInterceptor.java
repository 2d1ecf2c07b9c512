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

package dev.lease.fence.http;

import java.io.IOException;

import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

import dev.lease.fence.BoundFence;
import dev.lease.fence.FenceBinding;

/**
 * Sends the fence bound for one fenced party as the {@code Lease-Fence} header, for
 * {@code RestClient} and {@code RestTemplate}. Only the fence travels, never an effect
 * instant (Fence 10). A request made with no fence bound for the party is not sent.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class FenceClientHttpRequestInterceptor extends FencedClient implements ClientHttpRequestInterceptor {

	/**
	 * Create an interceptor sending the fence of the given party.
	 * @param party the fenced party the requests go to, as named under
	 * {@code lease.fences}
	 */
	public FenceClientHttpRequestInterceptor(String party) {
		super(party);
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		BoundFence fence = FenceBinding.required(party());
		request.getHeaders().set(LeaseFenceHeader.NAME, LeaseFenceHeader.format(fence.fence()));
		return execution.execute(request, body);
	}

}
