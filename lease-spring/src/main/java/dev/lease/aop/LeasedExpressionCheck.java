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

import java.beans.PropertyDescriptor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.MethodReference;
import org.springframework.expression.spel.ast.Projection;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.ast.Selection;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ReflectionUtils;

/**
 * Checks a {@code key} or {@code holder} expression of a {@code @Leased} method against
 * what a call can resolve: every {@code #variable} is a parameter (by name, or as
 * {@code #p0}, {@code #a0}), and every bare name at the head of a chain is a property or
 * method of the bean, the evaluation's root, that SpEL reads as a property: a getter, a
 * public field or a public method without parameters that returns a value, other than the
 * annotated method itself. A bare name is most often a constant written without its
 * quotes, as a ShedLock lock name is, so its fix is the quoted literal. Properties
 * further down a chain are not checked: their owner's type is known only at the call.
 *
 * @author Lease contributors
 */
final class LeasedExpressionCheck {

	private static final SpelExpressionParser PARSER = new SpelExpressionParser();

	private static final Pattern INDEXED = Pattern.compile("[pa]\\d+");

	// Written as a constant would be, had it its quotes: no SpEL syntax of its own.
	private static final Pattern PLAIN_CONSTANT = Pattern.compile("[\\w.:/-]+");

	private final String attribute;

	private final String text;

	private final Method method;

	private final Class<?> beanType;

	private final @Nullable String @Nullable [] names;

	private final List<String> problems = new ArrayList<>();

	private final List<String> fixes = new ArrayList<>();

	private LeasedExpressionCheck(String attribute, String text, Method method, Class<?> beanType) {
		this.attribute = attribute;
		this.text = text;
		this.method = method;
		this.beanType = beanType;
		this.names = LeasedOperation.PARAMETER_NAMES.getParameterNames(method);
	}

	/**
	 * Check an expression.
	 * @param attribute the attribute's name
	 * @param text the expression as written
	 * @param method the annotated method
	 * @param beanType the bean's class, the evaluation's root
	 * @return the problem and its fix, or {@code null} if there is none
	 */
	static String @Nullable [] check(String attribute, String text, Method method, Class<?> beanType) {
		LeasedExpressionCheck check = new LeasedExpressionCheck(attribute, text, method, beanType);
		check.run();
		if (check.problems.isEmpty()) {
			return null;
		}
		return new String[] { String.join("; ", check.problems),
				check.fixes.stream().distinct().collect(Collectors.joining("; ")) };
	}

	private void run() {
		if (this.text.isBlank()) {
			problem("it is empty", "give a SpEL expression, e.g. \"'order:' + #orderId\", or a quoted constant");
			return;
		}
		SpelExpression expression;
		try {
			expression = PARSER.parseRaw(this.text);
		}
		catch (ParseException ex) {
			problem("it is not a SpEL expression: " + ex.getSimpleMessage(),
					quoted().orElse("write a SpEL expression: a constant is a quoted literal, "
							+ "e.g. \"'nightly-report'\", an argument is #name, e.g. \"'order:' + #orderId\""));
			return;
		}
		walk(expression.getAST(), true, true);
	}

	private Optional<String> quoted() {
		if (PLAIN_CONSTANT.matcher(this.text.trim()).matches()) {
			return Optional.of("a constant " + this.attribute + " is a quoted literal: did you mean `'"
					+ this.text.trim() + "'`?");
		}
		return Optional.empty();
	}

	// A head is evaluated against the root, the bean; inside a selection or projection
	// the root of a name is each element, whose type is known only at the call.
	private void walk(SpelNode node, boolean head, boolean beanRoot) {
		if (node instanceof VariableReference) {
			variable(node.toStringAST().substring(1));
		}
		else if (node instanceof PropertyOrFieldReference property && head && beanRoot) {
			property(property.getName());
		}
		else if (node instanceof MethodReference reference && head && beanRoot && !hasMethod(reference.getName())) {
			problem(reference.getName() + "() is not a public method of the bean " + this.beanType.getName(),
					"call a method of an argument as #name.method(), or of another bean as @bean.method()");
		}
		boolean elements = node instanceof Selection || node instanceof Projection;
		for (int i = 0; i < node.getChildCount(); i++) {
			boolean childHead = !(node instanceof CompoundExpression) || i == 0;
			walk(node.getChild(i), childHead, beanRoot && !elements);
		}
	}

	private void variable(String name) {
		if (name.equals("root") || name.equals("this") || isParameter(name)) {
			return;
		}
		problem("#" + name + " is not a parameter of the method",
				(this.names != null) ? "name an argument as one of " + parameters()
						: "the method's parameter names are not known (compile with -parameters), "
								+ "name an argument by position: " + parameters());
	}

	private boolean isParameter(String name) {
		int count = this.method.getParameterCount();
		if (INDEXED.matcher(name).matches()) {
			return name.length() < 10 && Integer.parseInt(name.substring(1)) < count;
		}
		return this.names != null && Arrays.asList(this.names).contains(name);
	}

	private void property(String name) {
		if (this.names != null && Arrays.asList(this.names).contains(name)) {
			problem("'" + name + "' is read as a property of the bean, not as the parameter",
					"did you mean `#" + name + "`?");
			return;
		}
		if (isBeanProperty(name)) {
			return;
		}
		if (readsTheLeasedMethod(name) && hasAccessor(name)) {
			problem("'" + name + "' is read by calling " + name + "(), the leased method itself, for its "
					+ this.attribute, quoted().orElse("write a constant as a quoted literal, e.g. `'" + name + "'`"));
			return;
		}
		problem("'" + name + "' is neither a parameter of the method nor a property of the bean", quoted()
			.orElse("write a constant as a quoted literal, e.g. `'" + name + "'`, or an argument as " + parameters()));
	}

	private void problem(String problem, String fix) {
		this.problems.add(problem);
		this.fixes.add(fix);
	}

	// What SpEL reads for a bare name at the call: a getter, a public field, or a public
	// method of that name with no parameters that returns a value (a record-style
	// accessor), which is never the leased method: reading it would run the work.
	private boolean isBeanProperty(String name) {
		PropertyDescriptor descriptor = BeanUtils.getPropertyDescriptor(this.beanType, name);
		if (descriptor != null && descriptor.getReadMethod() != null) {
			return true;
		}
		Field field = ReflectionUtils.findField(this.beanType, name);
		if (field != null && Modifier.isPublic(field.getModifiers())) {
			return true;
		}
		return hasAccessor(name) && !readsTheLeasedMethod(name);
	}

	private boolean readsTheLeasedMethod(String name) {
		return name.equals(this.method.getName()) && this.method.getParameterCount() == 0;
	}

	private boolean hasAccessor(String name) {
		return Arrays.stream(this.beanType.getMethods())
			.anyMatch((candidate) -> candidate.getName().equals(name) && candidate.getParameterCount() == 0
					&& candidate.getReturnType() != void.class);
	}

	private boolean hasMethod(String name) {
		return Arrays.stream(this.beanType.getMethods()).anyMatch((candidate) -> candidate.getName().equals(name));
	}

	private String parameters() {
		int count = this.method.getParameterCount();
		if (count == 0) {
			return "nothing: the method has no parameters";
		}
		return IntStream.range(0, count).mapToObj((i) -> {
			String name = (this.names != null && i < this.names.length && this.names[i] != null)
					? "#" + this.names[i] + " or " : "";
			return name + "#p" + i;
		}).collect(Collectors.joining(", "));
	}

}
