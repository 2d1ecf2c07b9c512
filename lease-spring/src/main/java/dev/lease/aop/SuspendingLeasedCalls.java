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

import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;
import org.aopalliance.intercept.MethodInvocation;

import dev.lease.template.LeaseRequest;
import dev.lease.template.LeaseStackElement;

/**
 * Leased Kotlin {@code suspend} functions. With kotlinx-coroutines-reactor on the class
 * path, Spring runs a suspend function under its advice as a {@code Mono} (in a coroutine
 * with the calling coroutine's context, read from the function's continuation argument)
 * and awaits it in the calling coroutine: the call is leased as a {@code Mono} is
 * ({@link ReactiveLeasedCalls}), so the key is held until the coroutine completes,
 * released before the caller resumes, on failure and on cancellation, and a cancelled
 * waiting take is withdrawn. The function's coroutine carries its grant in a
 * {@link LeaseStackElement}, bound to whichever thread it runs on, so that
 * {@code @Fenced} calls inside mint their fences from it. Loaded only for suspend
 * functions.
 * <p>
 * A suspend function returning a {@code Flow} Spring invokes as a {@code Flux} of the
 * flow's elements, and hands the caller a {@code Flow} of the publisher the advice
 * returns: it is leased as a {@code Flux} is, until the collection completes, fails or is
 * cancelled. Spring collects that {@code Flow} in a coroutine of its own, which the
 * advice cannot add the grant to: the collection has the grant in its Reactor context
 * and, until it first suspends, bound to its thread.
 *
 * @author Lease contributors
 */
final class SuspendingLeasedCalls {

	private SuspendingLeasedCalls() {
	}

	@SuppressWarnings("unchecked")
	static Object lease(LeasedMethodInterceptor interceptor, LeasedOperation operation, LeaseRequest request,
			MethodInvocation invocation) {
		Object[] arguments = invocation.getArguments();
		int last = arguments.length - 1;
		Continuation<Object> caller = (Continuation<Object>) arguments[last];
		return ReactiveLeasedCalls.lease(interceptor, operation, request, (held) -> {
			// Spring starts the function's coroutine in the context of the continuation
			// argument when the invocation proceeds, and reads it nowhere else: the
			// grant goes into that context for the call only.
			CoroutineContext context = caller.getContext()
				.plus(LeaseStackElement.with(caller.getContext(), held.lease()));
			arguments[last] = new Carrying(caller, context);
			try {
				return ReactiveLeasedCalls.proceed(invocation);
			}
			finally {
				arguments[last] = caller;
			}
		}, operation.kind() != ReturnKind.SUSPENDING_FLOW);
	}

	/**
	 * The caller's continuation seen with the grant in its context.
	 */
	private record Carrying(Continuation<Object> caller, CoroutineContext context) implements Continuation<Object> {

		@Override
		public CoroutineContext getContext() {
			return this.context;
		}

		@Override
		public void resumeWith(Object result) {
			this.caller.resumeWith(result);
		}

	}

}
