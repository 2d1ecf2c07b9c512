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

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

import dev.lease.Allowance;
import dev.lease.Fence;
import dev.lease.Lease;
import dev.lease.annotation.Fenced;
import dev.lease.fence.BoundFence;
import dev.lease.fence.FenceAllowances;
import dev.lease.fence.FenceBinding;
import dev.lease.fence.FenceRefusalListener;
import dev.lease.fence.reactor.ReactorFences;
import dev.lease.template.LeaseStack;

/**
 * Applies {@link Fenced @Fenced}: mints the party's fence from the innermost grant the
 * current thread holds, with the party's declared allowance (Fence 5, 8: each party from
 * {@code expiresAt}, never from another fence), fills each {@link Fence} parameter passed
 * as {@code null}, and binds the fence to the thread for the call; a {@code Mono} or
 * {@code Flux} result carries it in its subscriber context. The bound fence carries the
 * application's refusal listener, which a fenced party built without a listener of its
 * own reports its refusals to.
 * <p>
 * A method returning a {@code Mono} or {@code Flux} called where the thread holds no
 * grant runs when its publisher is subscribed, under the grant of the leased pipeline
 * that subscribes to it, which its subscriber context carries ({@code @Leased} on a
 * reactive method puts it there).
 * <p>
 * Outside any lease, or for a party with no declared allowance, the method does not run
 * and an {@link IllegalStateException} says why (for a {@code Mono} or {@code Flux},
 * outside any lease, as the subscription's failure).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class FencedMethodInterceptor implements MethodInterceptor {

	private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
			FencedMethodInterceptor.class.getClassLoader());

	private final FenceAllowances allowances;

	private final FenceRefusalListener listener;

	/**
	 * Create an interceptor minting with the given allowances, whose fences carry no
	 * refusal listener.
	 * @param allowances the declared allowance of each fenced party
	 */
	public FencedMethodInterceptor(FenceAllowances allowances) {
		this(allowances, FenceRefusalListener.NONE);
	}

	/**
	 * Create an interceptor minting with the given allowances.
	 * @param allowances the declared allowance of each fenced party
	 * @param listener the application's refusal listener, carried by every fence bound
	 */
	public FencedMethodInterceptor(FenceAllowances allowances, FenceRefusalListener listener) {
		Assert.notNull(allowances, "'allowances' must not be null");
		Assert.notNull(listener, "'listener' must not be null");
		this.allowances = allowances;
		this.listener = listener;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Fenced fenced = findFenced(invocation);
		if (fenced == null) {
			return invocation.proceed();
		}
		String party = fenced.value();
		Method method = invocation.getMethod();
		Lease lease = LeaseStack.innermost();
		boolean later = lease == null && REACTOR_PRESENT && ReactiveFencedCalls.defers(method);
		if (lease == null && !later) {
			throw new IllegalStateException(outside(party, method));
		}
		Allowance allowance = this.allowances.find(party);
		if (allowance == null) {
			throw new IllegalStateException("@Fenced(\"" + party + "\") " + describe(method)
					+ " names a fenced party with no declared allowance: set 'lease.fences." + party + ".allowance'");
		}
		if (lease == null) {
			return ReactiveFencedCalls.later(method, invocation, outside(party, method),
					(call, grant) -> fenced(party, allowance, grant, call));
		}
		return fenced(party, allowance, lease, invocation);
	}

	private @Nullable Object fenced(String party, Allowance allowance, Lease lease, MethodInvocation invocation)
			throws Throwable {
		Fence fence = Fence.mint(lease, allowance);
		fillFenceParameters(invocation.getMethod(), invocation.getArguments(), fence);
		BoundFence bound = new BoundFence(party, lease.key(), fence, this.listener);
		try (FenceBinding.Scope scope = FenceBinding.bind(bound)) {
			Object result = invocation.proceed();
			return (REACTOR_PRESENT) ? ReactorFences.carry(result, bound) : result;
		}
	}

	private static String outside(String party, Method method) {
		return "@Fenced(\"" + party + "\") " + describe(method)
				+ " was called outside any lease: there is no grant to mint its fence from. "
				+ "Call it from within a @Leased method; in the Mono or Flux of one, where the pipeline is"
				+ " subscribed or requested, or return a Mono or Flux from it, which finds the grant in the"
				+ " subscriber context on any thread";
	}

	private static void fillFenceParameters(Method method, @Nullable Object[] arguments, Fence fence) {
		Class<?>[] types = method.getParameterTypes();
		for (int i = 0; i < types.length && i < arguments.length; i++) {
			if (types[i] == Fence.class && arguments[i] == null) {
				arguments[i] = fence;
			}
		}
	}

	private static @Nullable Fenced findFenced(MethodInvocation invocation) {
		Method method = invocation.getMethod();
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target) : method.getDeclaringClass();
		Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
		Fenced fenced = AnnotatedElementUtils.findMergedAnnotation(specific, Fenced.class);
		if (fenced == null) {
			fenced = AnnotatedElementUtils.findMergedAnnotation(targetClass, Fenced.class);
		}
		return fenced;
	}

	private static String describe(Method method) {
		return method.getDeclaringClass().getSimpleName() + "." + method.getName();
	}

}
