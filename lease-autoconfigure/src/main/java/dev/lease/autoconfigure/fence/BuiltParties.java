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

package dev.lease.autoconfigure.fence;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ObjectUtils;
import org.springframework.util.ReflectionUtils;

import dev.lease.fence.FencedParty;

/**
 * Finds the fenced parties an application built: a singleton that is one, or one held in
 * a singleton's fields, directly or in a {@code java.util} collection or an array.
 * Proxies are looked through to their target, whose fields hold the parties. Only one
 * level of fields is read, and only collections of the JDK's own are iterated: reading
 * deeper, or iterating a collection of unknown kind, could load data or race with its
 * owner.
 *
 * @author Lease contributors
 */
final class BuiltParties {

	// party -> where the application names it
	private final Map<String, Set<String>> named;

	BuiltParties(Map<String, Set<String>> named) {
		this.named = named;
	}

	void collect(String beanName, Object singleton) {
		Object target = target(singleton);
		if (record(target, "bean '" + beanName + "'") || container(target)) {
			elements(target, "in bean '" + beanName + "'");
			return;
		}
		Class<?> type = ClassUtils.getUserClass(target);
		if (isJdk(type)) {
			return;
		}
		ReflectionUtils.doWithFields(type, (field) -> {
			Object value = read(field, target);
			if (value != null) {
				String where = "in field '" + field.getName() + "' of bean '" + beanName + "'";
				if (!record(value, where)) {
					elements(value, where);
				}
			}
		}, (field) -> !Modifier.isStatic(field.getModifiers()));
	}

	void name(String party, String where) {
		this.named.computeIfAbsent(party, (name) -> new TreeSet<>()).add(where);
	}

	private boolean record(Object candidate, String where) {
		if (candidate instanceof FencedParty party) {
			name(party.party(), describe(candidate) + " " + where);
			return true;
		}
		return false;
	}

	private void elements(Object container, String where) {
		try {
			if (container instanceof Collection<?> collection && isJdk(container.getClass())) {
				collection.forEach((element) -> record(element, where));
			}
			else if (container instanceof Map<?, ?> map && isJdk(container.getClass())) {
				map.values().forEach((element) -> record(element, where));
			}
			else if (container instanceof Object[] array) {
				Arrays.asList(array).forEach((element) -> record(element, where));
			}
		}
		catch (RuntimeException ex) {
			// a collection changed while read: its parties are found at their first write
		}
	}

	private static boolean container(Object candidate) {
		return candidate instanceof Collection || candidate instanceof Map || ObjectUtils.isArray(candidate);
	}

	private static Object target(Object bean) {
		Object next = AopProxyUtils.getSingletonTarget(bean);
		return (next != null) ? target(next) : bean;
	}

	private static @Nullable Object read(Field field, Object target) {
		if (!field.trySetAccessible()) {
			return null;
		}
		try {
			return field.get(target);
		}
		catch (IllegalAccessException | RuntimeException ex) {
			return null;
		}
	}

	private static boolean isJdk(Class<?> type) {
		String name = type.getName();
		return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
				|| name.startsWith("sun.") || name.startsWith("com.sun.");
	}

	private static String describe(Object party) {
		Class<?> type = ClassUtils.getUserClass(party);
		return (type.getSimpleName().isEmpty()) ? type.getName() : type.getSimpleName();
	}

}
