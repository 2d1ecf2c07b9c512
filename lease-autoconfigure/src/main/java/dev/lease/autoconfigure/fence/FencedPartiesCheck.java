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

import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import dev.lease.annotation.Fenced;
import dev.lease.fence.FenceAllowances;

/**
 * Fails start-up when a bean names a fenced party in {@code @Fenced} that has no declared
 * allowance under {@code lease.fences}.
 *
 * @author Lease contributors
 */
final class FencedPartiesCheck implements SmartInitializingSingleton, BeanFactoryAware {

	private final ObjectProvider<FenceAllowances> allowances;

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	FencedPartiesCheck(ObjectProvider<FenceAllowances> allowances) {
		this.allowances = allowances;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
		this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		ConfigurableListableBeanFactory beans = this.beanFactory;
		if (beans == null) {
			return;
		}
		Set<String> named = new TreeSet<>();
		for (String name : beans.getBeanDefinitionNames()) {
			Class<?> type = beans.getType(name, false);
			if (type != null) {
				collect(ClassUtils.getUserClass(type), named);
			}
		}
		Set<String> missing = this.allowances.getObject().missing(named);
		if (!missing.isEmpty()) {
			StringBuilder message = new StringBuilder("Fenced parties named in @Fenced have no declared allowance: ");
			message.append(missing).append(". Declare each one, for example:");
			for (String party : missing) {
				message.append(" lease.fences.").append(party).append(".allowance=200ms");
			}
			throw new IllegalStateException(message.toString());
		}
	}

	private static void collect(Class<?> type, Set<String> named) {
		Fenced onType = AnnotatedElementUtils.findMergedAnnotation(type, Fenced.class);
		if (onType != null) {
			named.add(onType.value());
		}
		ReflectionUtils.doWithMethods(type, (method) -> {
			Fenced onMethod = AnnotatedElementUtils.findMergedAnnotation(method, Fenced.class);
			if (onMethod != null) {
				named.add(onMethod.value());
			}
		});
	}

}
