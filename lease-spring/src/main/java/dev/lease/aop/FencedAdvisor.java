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

import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.core.Ordered;

import dev.lease.annotation.Fenced;
import dev.lease.fence.FenceAllowances;
import dev.lease.fence.FenceRefusalListener;

/**
 * Advisor applying {@link FencedMethodInterceptor} to methods annotated, or declared in
 * classes annotated, with {@link Fenced @Fenced}. Ordered last by default: the
 * {@code @Leased} advisor must run outside it, so the grant is on the thread before the
 * fence is minted.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class FencedAdvisor extends DefaultPointcutAdvisor {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an advisor minting with the given allowances, whose fences carry no refusal
	 * listener.
	 * @param allowances the declared allowance of each fenced party
	 */
	public FencedAdvisor(FenceAllowances allowances) {
		this(allowances, FenceRefusalListener.NONE);
	}

	/**
	 * Create an advisor minting with the given allowances.
	 * @param allowances the declared allowance of each fenced party
	 * @param listener the application's refusal listener, carried by every fence bound
	 */
	public FencedAdvisor(FenceAllowances allowances, FenceRefusalListener listener) {
		super(new ComposablePointcut(new AnnotationMatchingPointcut(Fenced.class, true))
			.union(new AnnotationMatchingPointcut(null, Fenced.class, true)),
				new FencedMethodInterceptor(allowances, listener));
		setOrder(Ordered.LOWEST_PRECEDENCE);
	}

}
