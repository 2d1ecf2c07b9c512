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

package dev.lease.fence.reactor;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

import dev.lease.fence.BoundFence;

/**
 * Carries a bound fence into a Reactor pipeline's context, where the thread binding does
 * not reach: a {@code @Fenced} method returning a {@code Mono} or {@code Flux} has its
 * fence written into the subscriber context, and
 * {@link dev.lease.fence.http.FenceExchangeFilterFunction} reads it from there.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class ReactorFences {

	private static final String KEY_PREFIX = ReactorFences.class.getName() + ".";

	private ReactorFences() {
	}

	/**
	 * Write the fence into the context of a {@code Mono} or {@code Flux}; any other value
	 * is answered unchanged.
	 * @param result a method's result
	 * @param fence the fence bound for the call
	 * @return the result, carrying the fence in its context when reactive
	 */
	public static @Nullable Object carry(@Nullable Object result, BoundFence fence) {
		if (result instanceof Mono<?> mono) {
			return mono.contextWrite((context) -> context.put(key(fence.party()), fence));
		}
		if (result instanceof Flux<?> flux) {
			return flux.contextWrite((context) -> context.put(key(fence.party()), fence));
		}
		return result;
	}

	/**
	 * Return the fence a pipeline's context carries for a party.
	 * @param context the subscriber context
	 * @param party the fenced party
	 * @return the fence, or {@code null} when the context carries none for the party
	 */
	public static @Nullable BoundFence find(ContextView context, String party) {
		return context.getOrDefault(key(party), null);
	}

	private static String key(String party) {
		return KEY_PREFIX + party;
	}

}
