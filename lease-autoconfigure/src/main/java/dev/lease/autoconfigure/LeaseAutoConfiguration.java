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

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Executor;

import org.jspecify.annotations.Nullable;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Lazy;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.StringUtils;

import dev.lease.LeaseHost;
import dev.lease.aop.LeasedAdvisor;
import dev.lease.aop.LeasedMethodChecks;
import dev.lease.aop.LeasedMethodInterceptor;
import dev.lease.template.LeaseTemplate;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for leases: checks that exactly one {@link LeaseHost} was chosen
 * and logs it, provides a {@link LeaseTemplate} over it, and applies
 * {@link dev.lease.annotation.Leased @Leased} through that template.
 * <p>
 * The host is chosen by the host auto-configurations that run before this one: a user's
 * own {@link LeaseHost} bean wins; else the one named by {@code lease.host}; else the
 * first available of Redis, JDBC and memory.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
		"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
@EnableConfigurationProperties(LeaseProperties.class)
@Import(LeaseAutoConfiguration.AutoProxyRegistrar.class)
public final class LeaseAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LeaseHostSelection leaseHostSelection(ObjectProvider<LeaseHost> hosts, LeaseProperties properties,
			ConfigurableListableBeanFactory beanFactory) {
		return new LeaseHostSelection(hosts, properties, beanFactory);
	}

	// Lazy: the selection reports a missing host itself, once the singletons exist,
	// rather than as the failure to create this bean. A bean that injects the template,
	// or the advisor's resolution below, creates it.
	@Bean
	@Lazy
	@ConditionalOnMissingBean
	LeaseTemplate leaseTemplate(LeaseHostSelection selection, ObjectProvider<LeaseHostDecorator> decorators,
			LeaseProperties properties, Environment environment) {
		LeaseHost host = selection.decoratedHost(decorators);
		String holderPrefix = StringUtils.hasText(properties.holderPrefix()) ? properties.holderPrefix()
				: defaultHolderPrefix(environment);
		return new LeaseTemplate(host, holderPrefix, properties.onOverrun());
	}

	// Closes the templates when the application stops, once the scheduled work has
	// completed and before the host closes, so the releases they hold back are made.
	@Bean
	HeldReleasesLifecycle<LeaseTemplate> leaseTemplateHeldReleases(ConfigurableListableBeanFactory beanFactory,
			Environment environment, ObjectProvider<LeaseHostThreads> threads) {
		return new HeldReleasesLifecycle<>(beanFactory, LeaseTemplate.class, LeaseTemplate::close, environment,
				threads.getIfAvailable());
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LeasedAdvisor leasedAdvisor(ObjectProvider<LeaseTemplate> template, BeanFactory beanFactory) {
		// The template and the executor are looked up on first use: an advisor is created
		// early, and would drag the template, its host, LeaseProperties and the
		// application's task executor past the post-processors.
		return new LeasedAdvisor(
				new LeasedMethodInterceptor(template::getObject, applicationTaskExecutor(beanFactory), beanFactory));
	}

	// A CompletionStage body whose take waited runs where the application's @Async work
	// does: its TaskDecorator and its choice of virtual threads apply. Without that
	// executor the interceptor has threads of its own, stopped with the advisor.
	private static @Nullable Executor applicationTaskExecutor(BeanFactory beanFactory) {
		String name = TaskExecutionAutoConfiguration.APPLICATION_TASK_EXECUTOR_BEAN_NAME;
		if (!beanFactory.containsBean(name)) {
			return null;
		}
		return (task) -> beanFactory.getBean(name, Executor.class).execute(task);
	}

	// Before the advisor proxies a bean: every problem of its annotated methods at once,
	// as a failure report, rather than the first one as a proxy creation error, or a bad
	// expression as an error at each call.
	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LeasedMethodChecks leasedMethodChecks() {
		return new LeasedMethodChecks();
	}

	// Resolves the template of leased calls, and so applies any LeaseHostDecorator to its
	// host, once the context is up rather than at the first call.
	@Bean
	static SmartInitializingSingleton leasedHostResolution(ObjectProvider<LeasedAdvisor> advisors) {
		return () -> advisors.orderedStream()
			.map(LeasedAdvisor::getAdvice)
			.filter(LeasedMethodInterceptor.class::isInstance)
			.forEach((advice) -> ((LeasedMethodInterceptor) advice).getHost());
	}

	static String defaultHolderPrefix(Environment environment) {
		String application = environment.getProperty("spring.application.name", "application");
		return application + "@" + hostName() + ":" + ProcessHandle.current().pid();
	}

	private static String hostName() {
		String name = System.getenv("HOSTNAME");
		if (StringUtils.hasText(name)) {
			return name;
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			return "localhost";
		}
	}

	/**
	 * Registers the infrastructure auto-proxy creator that applies the
	 * {@link LeasedAdvisor}, as {@code @EnableTransactionManagement} does; Boot's own AOP
	 * auto-configuration may escalate it.
	 */
	static class AutoProxyRegistrar implements ImportBeanDefinitionRegistrar {

		@Override
		public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
			AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
		}

	}

}
