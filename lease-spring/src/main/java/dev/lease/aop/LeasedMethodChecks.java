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
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringValueResolver;

import dev.lease.annotation.Fenced;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;
import dev.lease.aop.InvalidLeasedMethodException.Problem;

/**
 * Checks every {@link Leased @Leased} and {@link Fenced @Fenced} method of each bean
 * before the bean is proxied, and fails its creation with every problem found: a key or
 * holder expression a call cannot resolve, a duration or {@code holdAtLeast} that is
 * malformed, not positive or longer than the term, a result the reaction cannot carry, a
 * result consumed after the method returned that the key cannot be held for (a
 * {@code Stream}), a method no proxy runs. Without it a mistake in an expression shows
 * only when a call evaluates it, as an error on every tick of a scheduled job.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeasedMethodChecks implements BeanPostProcessor, BeanFactoryAware {

	private static final String LEASED = "@Leased";

	private static final String FENCED = "@Fenced";

	private final Set<Class<?>> passed = ConcurrentHashMap.newKeySet();

	private @Nullable StringValueResolver placeholders;

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		if (beanFactory instanceof ConfigurableBeanFactory configurable) {
			this.placeholders = configurable::resolveEmbeddedValue;
		}
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		Class<?> type = ClassUtils.getUserClass(AopProxyUtils.ultimateTargetClass(bean));
		if (this.passed.contains(type)
				|| !AnnotationUtils.isCandidateClass(type, List.of(Leased.class, Fenced.class))) {
			return bean;
		}
		List<Problem> problems = check(type);
		if (!problems.isEmpty()) {
			throw new InvalidLeasedMethodException(beanName, problems);
		}
		this.passed.add(type);
		return bean;
	}

	List<Problem> check(Class<?> type) {
		List<Problem> problems = new ArrayList<>();
		Fenced typeFenced = AnnotatedElementUtils.findMergedAnnotation(type, Fenced.class);
		if (typeFenced != null && typeFenced.value().isBlank()) {
			problems.add(blankParty(type.getName(), typeFenced));
		}
		Set<Method> methods = new LinkedHashSet<>();
		ReflectionUtils.doWithMethods(type, (method) -> methods.add(AopUtils.getMostSpecificMethod(method, type)),
				ReflectionUtils.USER_DECLARED_METHODS);
		for (Method method : methods) {
			Leased leased = AnnotatedElementUtils.findMergedAnnotation(method, Leased.class);
			Fenced fenced = AnnotatedElementUtils.findMergedAnnotation(method, Fenced.class);
			if (leased != null) {
				checkLeased(method, leased, type, problems);
			}
			if (fenced != null) {
				if (fenced.value().isBlank()) {
					problems.add(blankParty(describe(method), fenced));
				}
				unadvised(method, FENCED, problems);
			}
		}
		return problems;
	}

	private void checkLeased(Method method, Leased leased, Class<?> type, List<Problem> problems) {
		expression("key", leased.key(), method, type, problems);
		if (!leased.holder().isEmpty()) {
			expression("holder", leased.holder(), method, type, problems);
		}
		@Nullable Duration duration = duration(method, "duration", leased.duration(), problems);
		@Nullable Duration holdAtLeast = (leased.holdAtLeast().isEmpty()) ? null
				: duration(method, "holdAtLeast", leased.holdAtLeast(), problems);
		if (duration != null && holdAtLeast != null && holdAtLeast.compareTo(duration) > 0) {
			problem(problems, method, "holdAtLeast", leased.holdAtLeast(),
					"it is longer than the duration " + duration + ", and a grant is never held past its instant",
					"hold at most the duration (" + duration + "), or ask for a longer duration");
		}
		Class<?> returned = method.getReturnType();
		if (LeasedDefaults.onUnavailable(method, leased) == OnUnavailable.SKIP && returned.isPrimitive()
				&& returned != void.class) {
			String resolved = (leased.onUnavailable() == OnUnavailable.DEFAULT)
					? " (the default on a @Scheduled method)" : "";
			problem(problems, method, "onUnavailable", leased.onUnavailable().name(),
					"SKIP" + resolved + ", but a skipped call cannot return a " + returned.getName(),
					"return void, " + ClassUtils.resolvePrimitiveIfNecessary(returned).getName()
							+ ", an Optional, a CompletionStage, a Mono or a Flux; " + "or set onUnavailable = THROW");
		}
		String[] refusal = ReturnKind.refusal(method);
		if (refusal != null) {
			problem(problems, method, "method", "returns " + returned.getName(), refusal[0], refusal[1]);
		}
		unadvised(method, LEASED, problems);
	}

	private static void expression(String attribute, String text, Method method, Class<?> type,
			List<Problem> problems) {
		String[] found = LeasedExpressionCheck.check(attribute, text, method, type);
		if (found != null) {
			problem(problems, method, attribute, text, found[0], found[1]);
		}
	}

	// A leading minus is read past so that a negative term is called what it is.
	private @Nullable Duration duration(Method method, String attribute, String text, List<Problem> problems) {
		String resolved;
		try {
			resolved = LeasedOperation.resolve(text, this.placeholders);
		}
		catch (IllegalArgumentException ex) {
			return problem(problems, method, attribute, text, "'" + text + "' cannot be resolved: " + ex.getMessage(),
					"define the property it names");
		}
		if (resolved.contains("${")) {
			return problem(problems, method, attribute, text,
					"'" + resolved + "' has a placeholder no property resolves", "define the property it names");
		}
		String shown = (resolved.equals(text)) ? "'" + text + "'" : "'" + text + "' (resolved to '" + resolved + "')";
		String example = "duration".equals(attribute) ? "30s" : "5s";
		if (resolved.isBlank()) {
			return problem(problems, method, attribute, text, shown + " is empty: there is no default term",
					"give the term, e.g. \"" + example + "\"");
		}
		String trimmed = resolved.trim();
		boolean minus = trimmed.startsWith("-");
		Duration parsed;
		try {
			parsed = LeaseDurationParser.parse(minus ? trimmed.substring(1) : trimmed);
		}
		catch (IllegalArgumentException ex) {
			return problem(problems, method, attribute, text, shown + " is not a duration",
					"use a whole number and a unit (ns, us, ms, s, m, h, d), e.g. \"" + example
							+ "\", or ISO-8601, e.g. \"PT30S\"");
		}
		Duration value = minus ? parsed.negated() : parsed;
		boolean zeroAllowed = !"duration".equals(attribute);
		if (value.isNegative() || (value.isZero() && !zeroAllowed)) {
			return problem(problems, method, attribute, text, shown + " is not positive",
					zeroAllowed ? "give a positive hold, or leave it empty to release as soon as the method completes"
							: "give a positive term, e.g. \"" + example + "\"");
		}
		return value;
	}

	private static @Nullable Duration problem(List<Problem> problems, Method method, String attribute, String value,
			String problem, String fix) {
		problems.add(new Problem(LEASED, describe(method), attribute, value, problem, fix));
		return null;
	}

	// A proxy runs only what it can override or implement: anything else runs unleased.
	private static void unadvised(Method method, String annotation, List<Problem> problems) {
		int modifiers = method.getModifiers();
		@Nullable String kind = Modifier.isStatic(modifiers) ? "static" : Modifier.isPrivate(modifiers) ? "private"
				: (Modifier.isFinal(modifiers) && !implementsInterface(method)) ? "final" : null;
		if (kind != null) {
			problems.add(new Problem(annotation, describe(method), "method", kind,
					"the method is " + kind + ", so no proxy runs it and the annotation would be ignored",
					"make it a public, non-static, non-final method and call it through the bean"));
		}
	}

	// An interface-based proxy runs a final method that implements an interface method.
	private static boolean implementsInterface(Method method) {
		return ClassUtils.getAllInterfacesForClassAsSet(method.getDeclaringClass())
			.stream()
			.anyMatch((type) -> ReflectionUtils.findMethod(type, method.getName(), method.getParameterTypes()) != null);
	}

	private static Problem blankParty(String where, Fenced fenced) {
		return new Problem(FENCED, where, "value", fenced.value(), "it names no fenced party",
				"name the party the call's work goes to, as declared under lease.fences.<party>.allowance");
	}

	static String describe(Method method) {
		return method.getDeclaringClass().getName() + "." + method.getName()
				+ Arrays.stream(method.getParameterTypes())
					.map(Class::getName)
					.collect(Collectors.joining(", ", "(", ")"));
	}

}
