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

import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotationUtils;

import dev.lease.annotation.Leased;

/**
 * Applies {@link Leased @Leased} to the methods that carry it. Matching a method reads
 * and checks its annotation, so a malformed expression or duration fails when the bean is
 * created, naming the method.
 * <p>
 * Ordered {@link #DEFAULT_ORDER} so that the lease encloses a {@code @Transactional}
 * advice of default order: the transaction completes before the key is released.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeasedAdvisor extends DefaultPointcutAdvisor implements DisposableBean {

	/**
	 * The advisor's default order: before the transaction advisor's default of
	 * {@link Ordered#LOWEST_PRECEDENCE}.
	 */
	public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	private static final long serialVersionUID = 1L;

	private final transient LeasedMethodInterceptor interceptor;

	/**
	 * Create an advisor for the given interceptor.
	 * @param interceptor the interceptor that runs leased calls
	 */
	public LeasedAdvisor(LeasedMethodInterceptor interceptor) {
		super(new LeasedPointcut(interceptor), interceptor);
		this.interceptor = interceptor;
		setOrder(DEFAULT_ORDER);
	}

	/**
	 * Close the interceptor: the threads of its own, if it was given no executor, stop.
	 */
	@Override
	public void destroy() {
		this.interceptor.close();
	}

	private static final class LeasedPointcut extends StaticMethodMatcherPointcut {

		private final LeasedMethodInterceptor interceptor;

		LeasedPointcut(LeasedMethodInterceptor interceptor) {
			this.interceptor = interceptor;
			setClassFilter((type) -> AnnotationUtils.isCandidateClass(type, Leased.class));
		}

		@Override
		public boolean matches(Method method, @Nullable Class<?> targetClass) {
			return this.interceptor.operation(method, targetClass) != null;
		}

	}

}
