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
import java.util.Optional;
import java.util.concurrent.CompletionStage;

import org.springframework.core.KotlinDetector;
import org.springframework.util.ClassUtils;

/**
 * How a leased method's result completes, which decides when its key is released.
 *
 * @author Lease contributors
 */
enum ReturnKind {

	/** Released when the method returns or throws. */
	PLAIN,

	/** As {@link #PLAIN}; a skipped call returns nothing. */
	VOID,

	/** As {@link #PLAIN}; a skipped call returns an empty {@link Optional}. */
	OPTIONAL,

	/** Released when the returned {@link CompletionStage} completes. */
	COMPLETION_STAGE,

	/** Released when the returned Reactor {@code Mono} terminates or is cancelled. */
	MONO,

	/** Released when the returned Reactor {@code Flux} terminates or is cancelled. */
	FLUX,

	/**
	 * A Kotlin {@code suspend} function: released when its coroutine completes, fails or
	 * is cancelled.
	 */
	SUSPENDING;

	private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
			ReturnKind.class.getClassLoader());

	static ReturnKind of(Method method) {
		// declared to return Object: its result is the coroutine's, not the call's
		if (KotlinDetector.isSuspendingFunction(method)) {
			return SUSPENDING;
		}
		Class<?> type = method.getReturnType();
		if (type == void.class || type == Void.class) {
			return VOID;
		}
		if (type == Optional.class) {
			return OPTIONAL;
		}
		if (CompletionStage.class.isAssignableFrom(type)) {
			return COMPLETION_STAGE;
		}
		if (REACTOR_PRESENT) {
			if (type.getName().equals("reactor.core.publisher.Mono")) {
				return MONO;
			}
			if (type.getName().equals("reactor.core.publisher.Flux")) {
				return FLUX;
			}
		}
		return PLAIN;
	}

}
