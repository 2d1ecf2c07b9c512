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

import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import dev.lease.annotation.Fenced;
import dev.lease.autoconfigure.LeaseConfigurationException;
import dev.lease.fence.FenceAllowances;

/**
 * Fails start-up when a fenced party has no declared allowance under
 * {@code lease.fences}: a party named in {@code @Fenced}, or one the application built
 * ({@code FencedJdbcTemplate}, {@code FencedRedisWrites}, the {@code Lease-Fence} client
 * interceptors), found as a singleton or in a singleton's fields (looking through AOP
 * proxies, and into {@code java.util} collections and arrays held there). A party built
 * later, or held deeper, still fails at its first write.
 *
 * @param allowances the declared allowances, looked up once the singletons exist
 * @param beans the bean factory whose beans name or hold the parties
 * @author Lease contributors
 */
record FencedPartiesCheck(ObjectProvider<FenceAllowances> allowances,
		ConfigurableListableBeanFactory beans) implements SmartInitializingSingleton {

	@Override
	public void afterSingletonsInstantiated() {
		// party -> where the application names it, for the report
		Map<String, Set<String>> named = new TreeMap<>();
		BuiltParties built = new BuiltParties(named);
		for (String name : this.beans.getBeanDefinitionNames()) {
			Class<?> type = this.beans.getType(name, false);
			if (type != null) {
				collectAnnotated(name, ClassUtils.getUserClass(type), built);
			}
		}
		for (String name : this.beans.getSingletonNames()) {
			Object singleton = this.beans.getSingleton(name);
			if (singleton != null && singleton != this) {
				built.collect(name, singleton);
			}
		}
		Set<String> missing = this.allowances.getObject().missing(named.keySet());
		if (!missing.isEmpty()) {
			throw undeclared(missing, named);
		}
	}

	private static LeaseConfigurationException undeclared(Set<String> missing, Map<String, Set<String>> named) {
		StringJoiner parties = new StringJoiner("; ");
		StringJoiner examples = new StringJoiner(", ");
		for (String party : missing) {
			parties.add("'" + party + "', named by " + String.join(" and ", named.get(party)));
			examples.add("lease.fences." + party + ".allowance=200ms");
		}
		String description = ((missing.size() == 1) ? "A fenced party has" : "Fenced parties have")
				+ " no declared allowance: " + parties;
		String action = "Declare each party's allowance, the most its clock may read earlier than the lease host's ("
				+ examples + "), or correct the party's name where it is named";
		return new LeaseConfigurationException(description, action);
	}

	private static void collectAnnotated(String beanName, Class<?> type, BuiltParties named) {
		String where = "@Fenced on bean '" + beanName + "' (" + type.getSimpleName() + ")";
		Fenced onType = AnnotatedElementUtils.findMergedAnnotation(type, Fenced.class);
		if (onType != null) {
			named.name(onType.value(), where);
		}
		ReflectionUtils.doWithMethods(type, (method) -> {
			Fenced onMethod = AnnotatedElementUtils.findMergedAnnotation(method, Fenced.class);
			if (onMethod != null) {
				named.name(onMethod.value(), where);
			}
		});
	}

}
