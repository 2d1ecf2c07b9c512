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
import java.util.stream.BaseStream;

import org.jspecify.annotations.Nullable;
import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * How a leased method's result completes, which decides when its key is released. A
 * result that yields its values after the method returned is leased until they are all
 * delivered, or refused when the bean is proxied ({@link #refusal}): never released while
 * its values are still being made.
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

	/**
	 * Released when the returned Reactor {@code Mono}, or a single-value type Spring's
	 * {@link ReactiveAdapterRegistry} adapts to one, terminates or is cancelled.
	 */
	MONO,

	/**
	 * Released when the returned Reactor {@code Flux}, a {@code Publisher}, or a
	 * multi-value type Spring's {@link ReactiveAdapterRegistry} adapts to one, terminates
	 * or is cancelled: after its last element.
	 */
	FLUX,

	/**
	 * A Kotlin {@code Flow} returned by a plain function: released when its collection
	 * completes, fails or is cancelled; the grant is bound wherever the collection runs.
	 */
	FLOW,

	/**
	 * A Kotlin {@code suspend} function: released when its coroutine completes, fails or
	 * is cancelled.
	 */
	SUSPENDING,

	/**
	 * A Kotlin {@code suspend} function returning a {@code Flow}, which Spring invokes as
	 * a {@code Flux}: released when the collection of the {@code Flow} completes, fails
	 * or is cancelled.
	 */
	SUSPENDING_FLOW;

	private static final ClassLoader CLASS_LOADER = ReturnKind.class.getClassLoader();

	private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono", CLASS_LOADER);

	private static final String MONO_TYPE = "reactor.core.publisher.Mono";

	private static final String FLUX_TYPE = "reactor.core.publisher.Flux";

	private static final String PUBLISHER_TYPE = "org.reactivestreams.Publisher";

	private static final String FLOW_TYPE = "kotlinx.coroutines.flow.Flow";

	static ReturnKind of(Method method) {
		// declared to return Object: its result is the coroutine's, not the call's
		if (KotlinDetector.isSuspendingFunction(method)) {
			return isFlow(new MethodParameter(method, -1).getParameterType()) ? SUSPENDING_FLOW : SUSPENDING;
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
			if (type.getName().equals(MONO_TYPE)) {
				return MONO;
			}
			if (isFlux(type)) {
				return FLUX;
			}
			ReactiveAdapter adapter = adapter(type);
			if (adapter != null) {
				return (!adapter.isMultiValue()) ? MONO : isFlow(type) ? FLOW : FLUX;
			}
		}
		return PLAIN;
	}

	/**
	 * Return the adapter that makes the method's declared result from a Reactor publisher
	 * and back, when it is neither a {@code Mono} nor a type a {@code Flux} is.
	 * @param method the leased method
	 * @return the adapter, or {@code null} when the result needs none
	 */
	static @Nullable ReactiveAdapter adapterOf(Method method) {
		Class<?> type = method.getReturnType();
		if (!REACTOR_PRESENT || KotlinDetector.isSuspendingFunction(method) || type.getName().equals(MONO_TYPE)
				|| isFlux(type)) {
			return null;
		}
		return adapter(type);
	}

	/**
	 * Return why the method's result cannot be leased, and what to return instead: a
	 * result whose values are made after the method returned, which the advice cannot
	 * hold the key for.
	 * @param method the leased method
	 * @return the problem and its fix, or {@code null} when the result can be leased
	 */
	static String @Nullable [] refusal(Method method) {
		if (KotlinDetector.isSuspendingFunction(method)) {
			return null;
		}
		Class<?> type = method.getReturnType();
		String name = type.getName();
		if (BaseStream.class.isAssignableFrom(type)) {
			return new String[] {
					"a " + name + " is consumed after the method returned, when its key is"
							+ " already released: what it does lazily would run without the lease",
					"return a List (collect the stream inside the method), or a Flux (Flux.fromStream),"
							+ " which is leased until its last element" };
		}
		if (is(type, "kotlin.sequences.Sequence")) {
			return new String[] {
					"a " + name + " is iterated after the method returned, when its key is"
							+ " already released: what it does lazily would run without the lease",
					"return a List (toList() inside the function), or a Flow, which is leased until it is collected" };
		}
		if (of(method) != PLAIN) {
			return null;
		}
		if (isFlow(type)) {
			return new String[] {
					"a " + name + " is collected after the method returned, and @Leased holds its key"
							+ " for the collection through kotlinx-coroutines-reactor, which is not on the class path",
					"add org.jetbrains.kotlinx:kotlinx-coroutines-reactor to the class path" };
		}
		if (is(type, FLOW_TYPE)) {
			return new String[] { "a " + name + " is collected after the method returned, and @Leased holds its key"
					+ " for the collection of a Flow only", "declare the function to return a Flow" };
		}
		if (is(type, PUBLISHER_TYPE) || is(type, "java.util.concurrent.Flow$Publisher")) {
			return new String[] {
					"a " + name + " is subscribed after the method returned, and @Leased cannot hold"
							+ " its key for the subscription: "
							+ (REACTOR_PRESENT
									? "no adapter of Spring's ReactiveAdapterRegistry makes a " + name + " from a Flux"
									: "Reactor is not on the class path"),
					"return a Mono, a Flux or a Publisher"
							+ (REACTOR_PRESENT ? "" : ", with io.projectreactor:reactor-core on the class path") };
		}
		return null;
	}

	boolean multiValue() {
		return this == FLUX || this == FLOW || this == SUSPENDING_FLOW;
	}

	// Flux, Publisher, CorePublisher: a Flux is returned as it is.
	private static boolean isFlux(Class<?> type) {
		return is(type, PUBLISHER_TYPE) && assignableFrom(type, FLUX_TYPE);
	}

	private static boolean isFlow(Class<?> type) {
		return type.getName().equals(FLOW_TYPE);
	}

	// An adapter whose publisher converts back to the declared type itself; a subtype
	// (a StateFlow, an own Publisher) cannot be made from a Flux.
	private static @Nullable ReactiveAdapter adapter(Class<?> type) {
		ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(type);
		return (adapter != null && type.isAssignableFrom(adapter.getReactiveType())) ? adapter : null;
	}

	private static boolean is(Class<?> type, String name) {
		Class<?> named = load(name, type);
		return named != null && named.isAssignableFrom(type);
	}

	private static boolean assignableFrom(Class<?> type, String name) {
		Class<?> named = load(name, type);
		return named != null && type.isAssignableFrom(named);
	}

	private static @Nullable Class<?> load(String name, Class<?> type) {
		ClassLoader loader = (type.getClassLoader() != null) ? type.getClassLoader() : CLASS_LOADER;
		return ClassUtils.isPresent(name, loader) ? ClassUtils.resolveClassName(name, loader) : null;
	}

}
