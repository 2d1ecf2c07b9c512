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

package dev.lease.autoconfigure;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

import dev.lease.LeaseHost;
import dev.lease.host.inmemory.InMemoryLeaseHost;

/**
 * The host that was chosen, checked once: exactly one {@link LeaseHost} bean, logged at
 * INFO, with a warning when memory was reached by detection rather than chosen.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseHostSelection implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(LeaseHostSelection.class);

	private static final String AUTO_CONFIGURATION_PACKAGE = "dev.lease.autoconfigure.";

	private static final String TESTING_CONFIGURATION = "dev.lease.autoconfigure.test.LeaseTestingConfiguration";

	private static final String NOT_SHARED = "An in-memory lease is not shared across instances: it excludes callers"
			+ " in this JVM only.";

	private final ObjectProvider<LeaseHost> hosts;

	private final LeaseProperties properties;

	private final ConfigurableListableBeanFactory beanFactory;

	private volatile boolean logged;

	LeaseHostSelection(ObjectProvider<LeaseHost> hosts, LeaseProperties properties,
			ConfigurableListableBeanFactory beanFactory) {
		this.hosts = hosts;
		this.properties = properties;
		this.beanFactory = beanFactory;
	}

	/**
	 * Return the chosen host.
	 * @return the host
	 * @throws NoLeaseHostException when no host, or more than one, is available
	 */
	public LeaseHost host() {
		List<LeaseHost> candidates = this.hosts.stream().toList();
		if (candidates.size() == 1) {
			return candidates.get(0);
		}
		LeaseHost unique = this.hosts.getIfUnique();
		if (unique != null) {
			return unique;
		}
		LeaseProperties.Host named = this.properties.host();
		if (candidates.isEmpty()) {
			if (named == null) {
				throw new NoLeaseHostException("No LeaseHost is available",
						"Define a LeaseHost bean, or set lease.host to redis, jdbc or memory");
			}
			throw missing(named);
		}
		throw new NoLeaseHostException("More than one LeaseHost bean is defined (" + candidates.size() + ")",
				"Mark the one leases should use @Primary, or define only one");
	}

	/**
	 * Return the chosen host wrapped by the given decorators, in their order: the host
	 * that {@code @Leased} calls and the ShedLock adapter use.
	 * @param decorators the decorators to apply
	 * @return the decorated host
	 * @throws NoLeaseHostException when no host, or more than one, is available
	 * @since 0.1.0
	 */
	public LeaseHost decoratedHost(ObjectProvider<LeaseHostDecorator> decorators) {
		LeaseHost host = host();
		for (LeaseHostDecorator decorator : decorators.orderedStream().toList()) {
			host = decorator.decorate(host);
		}
		return host;
	}

	private static NoLeaseHostException missing(LeaseProperties.Host named) {
		String name = named.name().toLowerCase(Locale.ROOT);
		String description = "lease.host is '" + name + "' but no " + name + " lease host could be created";
		return new NoLeaseHostException(description, switch (named) {
			case REDIS -> "The Redis lease host needs spring-boot-data-redis on the classpath and a"
					+ " RedisConnectionFactory bean; add them, or choose another lease.host";
			case JDBC -> "The JDBC lease host needs spring-boot-jdbc on the classpath and a DataSource bean; add"
					+ " them, or choose another lease.host";
			default -> "Remove the lease.host property, or define a LeaseHost bean";
		});
	}

	private @Nullable String factoryOf(LeaseHost host) {
		for (Map.Entry<String, LeaseHost> candidate : this.beanFactory.getBeansOfType(LeaseHost.class).entrySet()) {
			if (candidate.getValue() == host) {
				try {
					return this.beanFactory.getMergedBeanDefinition(candidate.getKey()).getFactoryBeanName();
				}
				catch (NoSuchBeanDefinitionException ex) {
					return null;
				}
			}
		}
		return null;
	}

	// Detection reached memory although the application has a store a shared host could
	// use: its host auto-configuration did not apply (a missing module, an unsupported
	// Spring Boot). Guarding jobs in one JVM only, believing them guarded across all, is
	// the failure this refuses.
	private void refuseSilentFallback() {
		String[][] stores = { { "javax.sql.DataSource", "DataSource", "jdbc" },
				{ "org.springframework.data.redis.connection.RedisConnectionFactory", "RedisConnectionFactory",
						"redis" } };
		for (String[] store : stores) {
			ClassLoader classLoader = this.beanFactory.getBeanClassLoader();
			if (!ClassUtils.isPresent(store[0], classLoader)) {
				continue;
			}
			String[] names = this.beanFactory.getBeanNamesForType(ClassUtils.resolveClassName(store[0], classLoader),
					false, false);
			if (names.length > 0) {
				throw new NoLeaseHostException(
						"Leases would be hosted in memory, not shared across instances,"
								+ " although the application has a " + store[1] + " bean '" + names[0] + "': no "
								+ store[2] + " lease host was auto-configured",
						"Set lease.host=" + store[2] + " to host leases there (it needs a supported Spring Boot, see"
								+ " the README's compatibility table), or set lease.host=memory to keep leases in"
								+ " this JVM only");
			}
		}
	}

	@Override
	public void afterSingletonsInstantiated() {
		LeaseHost host = host();
		if (this.logged) {
			return;
		}
		this.logged = true;
		// the observed bean's target: the host that answers
		LeaseHost target = LeaseHostTarget.of(host);
		boolean memory = target instanceof InMemoryLeaseHost;
		// Whether the host is a bean of one of our host auto-configurations, rather than
		// one the application, or a test through @AutoConfigureLeaseTesting, defined.
		// Configuration classes are registered under their class names, also in an
		// AOT-processed context.
		String factory = factoryOf(host);
		boolean testing = TESTING_CONFIGURATION.equals(factory);
		boolean autoConfigured = factory != null && factory.startsWith(AUTO_CONFIGURATION_PACKAGE) && !testing;
		if (memory && autoConfigured && this.properties.host() == null) {
			refuseSilentFallback();
			logger.warn("Leases are hosted in memory because no Redis or JDBC host was detected. " + NOT_SHARED
					+ " Set lease.host to redis or jdbc (with a RedisConnectionFactory or DataSource), or set"
					+ " lease.host=memory to choose memory explicitly");
			return;
		}
		String how = testing ? ", the testing host of @AutoConfigureLeaseTesting"
				: !autoConfigured ? ", a LeaseHost bean of the application"
						: (this.properties.host() != null) ? ", chosen by lease.host" : ", detected";
		logger.info("Leases are hosted by the " + LeaseHostNames.of(host) + " lease host ("
				+ target.getClass().getName() + ")" + how + (memory ? ". " + NOT_SHARED : ""));
	}

}
