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

package dev.lease.aop;

import java.lang.reflect.Method;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.aop.ProxyMethodInvocation;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

import dev.lease.Lease;

/**
 * {@code @Fenced} methods returning a {@code Mono} or {@code Flux}, called where no grant
 * is bound to the thread (in a leased pipeline's {@code flatMap} after a change of
 * thread): the method runs when its publisher is subscribed, minting its fence from the
 * grant the subscriber context carries ({@link ReactorLeases}), and fails the
 * subscription, without running, when the context carries none. Loaded only when Reactor
 * is on the classpath.
 *
 * @author Lease contributors
 */
final class ReactiveFencedCalls {

	private ReactiveFencedCalls() {
	}

	static boolean defers(Method method) {
		Class<?> type = method.getReturnType();
		return type == Mono.class || (Publisher.class.isAssignableFrom(type) && type.isAssignableFrom(Flux.class));
	}

	static Object later(Method method, MethodInvocation invocation, String outside, Fencing fencing) {
		if (method.getReturnType() == Mono.class) {
			return Mono.deferContextual((context) -> Mono.from(run(context, invocation, outside, fencing)));
		}
		return Flux.deferContextual((context) -> run(context, invocation, outside, fencing));
	}

	// Each subscription runs the method once, through the rest of its advice chain.
	private static Publisher<?> run(ContextView context, MethodInvocation invocation, String outside, Fencing fencing) {
		Lease lease = ReactorLeases.innermost(context);
		if (lease == null) {
			return Mono.error(new IllegalStateException(outside));
		}
		MethodInvocation call = (invocation instanceof ProxyMethodInvocation proxied) ? proxied.invocableClone()
				: invocation;
		try {
			Object result = fencing.run(call, lease);
			return (result != null) ? (Publisher<?>) result : Mono.empty();
		}
		catch (Throwable ex) {
			return Mono.error(ex);
		}
	}

	/**
	 * Runs a fenced call under a fence minted from the given grant.
	 */
	@FunctionalInterface
	interface Fencing {

		@Nullable Object run(MethodInvocation invocation, Lease lease) throws Throwable;

	}

}
