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

import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Mono;

import dev.lease.fence.BoundFence;
import dev.lease.fence.FenceBinding;
import dev.lease.fence.reactor.ReactorFences;

/**
 * Sends the fence bound for one fenced party as the {@code Lease-Fence} header, for
 * {@code WebClient}. The fence is read from the thread that runs the exchange's filter:
 * call from within the {@code @Fenced} method (for example with {@code block()}), or bind
 * the fence around the subscription. A request made with no fence bound for the party is
 * not sent.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class FenceExchangeFilterFunction extends FencedClient implements ExchangeFilterFunction {

	/**
	 * Create a filter sending the fence of the given party.
	 * @param party the fenced party the requests go to, as named under
	 * {@code lease.fences}
	 */
	public FenceExchangeFilterFunction(String party) {
		super(party);
	}

	@Override
	public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
		BoundFence bound = FenceBinding.current(party());
		return Mono.deferContextual((context) -> {
			BoundFence carried = ReactorFences.find(context, party());
			BoundFence fence = (carried != null) ? carried : bound;
			if (fence == null) {
				return Mono.error(() -> new IllegalStateException(FenceBinding.missing(party())));
			}
			ClientRequest fenced = ClientRequest.from(request)
				.header(LeaseFenceHeader.NAME, LeaseFenceHeader.format(fence.fence()))
				.build();
			return next.exchange(fenced);
		});
	}

}
