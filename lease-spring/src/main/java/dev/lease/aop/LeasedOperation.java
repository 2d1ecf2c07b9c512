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
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.NativeDetector;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.ReactiveAdapter;
import org.springframework.expression.BeanResolver;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringValueResolver;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;

/**
 * One {@code @Leased} method, read once: its expressions parsed, its duration resolved
 * and checked, its result's kind known. Every call evaluates the parsed expressions only.
 *
 * @param method the method
 * @param description the method as messages name it
 * @param keyExpression the parsed {@code key}
 * @param holderExpression the parsed {@code holder}, or {@code null} for the default
 * holder
 * @param duration the term asked for
 * @param holdAtLeast how long a grant is kept at least, zero for no hold
 * @param mode whether a call waits for the key
 * @param onUnavailable what a call does when the key is not taken
 * @param kind the kind of the method's result
 * @param adapter makes the declared result from a Reactor publisher and back, when it is
 * neither a Mono nor a type a Flux is
 * @param parameterNames the method's parameter names, discovered once
 * @author Lease contributors
 */
record LeasedOperation(Method method, String description, Expression keyExpression,
		@Nullable Expression holderExpression, Duration duration, Duration holdAtLeast, LeaseMode mode,
		OnUnavailable onUnavailable, ReturnKind kind, @Nullable ReactiveAdapter adapter,
		@Nullable String @Nullable [] parameterNames) {

	// MIXED: an expression is compiled to bytecode once it has run a few times, and falls
	// back to interpretation if a compiled form stops fitting its arguments. A native
	// image cannot define classes at run time, so there it is interpreted only.
	private static final SpelExpressionParser PARSER = new SpelExpressionParser(
			new SpelParserConfiguration(NativeDetector.inNativeImage() ? SpelCompilerMode.OFF : SpelCompilerMode.MIXED,
					LeasedOperation.class.getClassLoader()));

	private static final boolean COROUTINES_REACTOR_PRESENT = ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt",
			LeasedOperation.class.getClassLoader());

	static final ParameterNameDiscoverer PARAMETER_NAMES = new DefaultParameterNameDiscoverer();

	static LeasedOperation of(Method method, Leased leased, @Nullable StringValueResolver placeholders) {
		String description = method.getDeclaringClass().getName() + "." + method.getName() + "()";
		Expression key = parse(leased.key(), "key", description);
		Expression holder = (leased.holder().isBlank()) ? null : parse(leased.holder(), "holder", description);
		Duration duration = term("duration", leased.duration(), null, placeholders, description);
		Duration holdAtLeast = term("holdAtLeast", leased.holdAtLeast(), duration, placeholders, description);
		ReturnKind kind = ReturnKind.of(method);
		if ((kind == ReturnKind.SUSPENDING || kind == ReturnKind.SUSPENDING_FLOW) && !COROUTINES_REACTOR_PRESENT) {
			throw new IllegalStateException("@Leased on " + description + " is a suspend function, which Spring"
					+ " runs under advice only through kotlinx-coroutines-reactor: without it the function would"
					+ " run without its lease. Add org.jetbrains.kotlinx:kotlinx-coroutines-reactor to the class path");
		}
		String[] refusal = ReturnKind.refusal(method);
		if (refusal != null) {
			throw new IllegalStateException("@Leased on " + description + ": " + refusal[0] + ". Fix: " + refusal[1]);
		}
		if (LeasedDefaults.onUnavailable(method, leased) == OnUnavailable.SKIP && method.getReturnType().isPrimitive()
				&& method.getReturnType() != void.class) {
			throw new IllegalStateException("@Leased on " + description
					+ " has onUnavailable = SKIP, but a skipped call" + " cannot return a "
					+ method.getReturnType().getName()
					+ ": return void, an object, an Optional, a CompletionStage, a Mono or a Flux, or use THROW");
		}
		return new LeasedOperation(method, description, key, holder, duration, holdAtLeast,
				LeasedDefaults.mode(method, leased), LeasedDefaults.onUnavailable(method, leased), kind,
				ReturnKind.adapterOf(method), PARAMETER_NAMES.getParameterNames(method));
	}

	private static Expression parse(String text, String element, String description) {
		if (text.isBlank()) {
			throw new IllegalStateException("@Leased on " + description + " has an empty '" + element
					+ "': give a SpEL expression, e.g. \"'order:' + #orderId\"");
		}
		try {
			return PARSER.parseExpression(text);
		}
		catch (ParseException ex) {
			throw new IllegalStateException(
					"@Leased on " + description + " has a malformed '" + element + "' expression '" + text + "'", ex);
		}
	}

	// An empty holdAtLeast (duration given): released as soon as the method completes.
	// Equal to the duration: never released, the instant ends the grant; longer would
	// hold past the instant.
	private static Duration term(String attribute, String text, @Nullable Duration duration,
			@Nullable StringValueResolver placeholders, String description) {
		String resolved = text;
		try {
			resolved = resolve(text, placeholders);
			if (resolved.isBlank() && duration != null) {
				return Duration.ZERO;
			}
			Assert.isTrue(!resolved.isBlank(), "it is empty; there is no default term");
			Duration term = LeaseDurationParser.parse(resolved);
			Assert.isTrue(duration != null || (!term.isZero() && !term.isNegative()), "it must be positive");
			Assert.isTrue(!term.isNegative(), "it must not be negative");
			Assert.isTrue(duration == null || term.compareTo(duration) <= 0, () -> "it is longer than the duration "
					+ duration + ", and a grant is never held past its instant: hold at most the duration");
			return term;
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("@Leased on " + description + " has an invalid " + attribute + " '" + text
					+ "'" + ((resolved.equals(text)) ? "" : " (resolved to '" + resolved + "')") + ": "
					+ ex.getMessage(), ex);
		}
	}

	static String resolve(String text, @Nullable StringValueResolver placeholders) {
		if (placeholders == null) {
			return text;
		}
		String value = placeholders.resolveStringValue(text);
		return (value != null) ? value : text;
	}

	LeaseKey key(Object target, @Nullable Object[] arguments, @Nullable BeanResolver beans) {
		return identity(this.keyExpression, "key", target, arguments, beans, LeaseKey::of, LeaseKey::of);
	}

	@Nullable LeaseHolder holder(Object target, @Nullable Object[] arguments, @Nullable BeanResolver beans) {
		return (this.holderExpression != null)
				? identity(this.holderExpression, "holder", target, arguments, beans, LeaseHolder::of, LeaseHolder::of)
				: null;
	}

	// A key or a holder is the non-empty bytes or text its expression yields.
	private <T> T identity(Expression expression, String element, Object target, @Nullable Object[] arguments,
			@Nullable BeanResolver beans, Function<byte[], T> ofBytes, Function<String, T> ofText) {
		Object value = evaluate(expression, target, arguments, beans, element);
		if (value instanceof byte[] bytes && bytes.length > 0) {
			return ofBytes.apply(bytes);
		}
		if (value instanceof String text && !text.isEmpty()) {
			return ofText.apply(text);
		}
		throw new IllegalArgumentException(
				"@Leased on " + this.description + ": '" + element + "' expression '" + expression.getExpressionString()
						+ "' yielded " + found(value) + "; it must yield a non-empty String or byte[]");
	}

	private @Nullable Object evaluate(Expression expression, Object target, @Nullable Object[] arguments,
			@Nullable BeanResolver beans, String element) {
		// The arguments as #name, #p0 and #a0, as MethodBasedEvaluationContext offers
		// them, with the names discovered once per method rather than once per call.
		StandardEvaluationContext context = new StandardEvaluationContext(target);
		if (arguments != null) {
			for (int i = 0; i < arguments.length; i++) {
				context.setVariable("p" + i, arguments[i]);
				context.setVariable("a" + i, arguments[i]);
				if (this.parameterNames != null && i < this.parameterNames.length) {
					context.setVariable(this.parameterNames[i], arguments[i]);
				}
			}
		}
		if (beans != null) {
			context.setBeanResolver(beans);
		}
		try {
			return expression.getValue(context);
		}
		catch (EvaluationException ex) {
			throw new IllegalArgumentException("@Leased on " + this.description + ": '" + element + "' expression '"
					+ expression.getExpressionString() + "' could not be evaluated: " + ex.getMessage(), ex);
		}
	}

	private static String found(@Nullable Object value) {
		if (value == null) {
			return "null";
		}
		if (value instanceof String || value instanceof byte[]) {
			return "an empty value";
		}
		return "a " + value.getClass().getName();
	}

	@Nullable Object skipped() {
		return switch (this.kind) {
			case OPTIONAL -> Optional.empty();
			case COMPLETION_STAGE -> CompletableFuture.completedFuture(null);
			case MONO, FLUX, FLOW, SUSPENDING, SUSPENDING_FLOW -> ReactiveLeasedCalls.empty(this.kind);
			default -> null;
		};
	}

}
