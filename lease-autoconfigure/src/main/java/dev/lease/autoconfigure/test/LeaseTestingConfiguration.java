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

package dev.lease.autoconfigure.test;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lease.LeaseHost;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.template.LeaseTemplate;

/**
 * The beans of {@link AutoConfigureLeaseTesting}: a {@link TestLeaseClock} (the test's
 * own, if it defines one), the in-memory host that reads it in place of any host bean of
 * the application, and every {@link LeaseTemplate} bean remade to measure holds on it.
 * Advancing the clock tells the host and the templates, so that waiting takes and holds
 * see the new time at once.
 *
 * @author Lease contributors
 */
@Configuration(proxyBeanMethods = false)
class LeaseTestingConfiguration {

	private static final String TEST_LEASE_HOST = "testLeaseHost";

	@Bean
	@ConditionalOnMissingBean
	TestLeaseClock testLeaseClock() {
		return new TestLeaseClock();
	}

	@Bean(TEST_LEASE_HOST)
	InMemoryLeaseHost testLeaseHost(TestLeaseClock testLeaseClock) {
		InMemoryLeaseHost host = new InMemoryLeaseHost(testLeaseClock);
		testLeaseClock.onAdvance(host::clockMoved);
		return host;
	}

	// The application's own host beans are removed rather than outranked, so that none
	// is created: a test does not reach the application's store. The Redis and JDBC
	// hosts back off by themselves, as the testing host is a host bean. Run once every
	// configuration class has registered its beans.
	@Bean
	static BeanDefinitionRegistryPostProcessor testLeaseHostReplacement() {
		return (registry) -> {
			if (!(registry instanceof ListableBeanFactory beanFactory)) {
				return;
			}
			for (String name : beanFactory.getBeanNamesForType(LeaseHost.class, true, false)) {
				if (!TEST_LEASE_HOST.equals(name)) {
					registry.removeBeanDefinition(name);
				}
			}
		};
	}

	// A template measures holds on the JVM's monotonic clock, which advancing does not
	// move: the auto-configured one, or the application's, is replaced by one on the
	// test clock. The clock is looked up only when a template is made, so that this
	// early bean does not create it before the post-processors.
	@Bean
	static BeanPostProcessor testLeaseTemplateClock(ObjectProvider<TestLeaseClock> testLeaseClock) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (!(bean instanceof LeaseTemplate template)) {
					return bean;
				}
				TestLeaseClock clock = testLeaseClock.getObject();
				LeaseTemplate onTestClock = template.withHoldClock(clock);
				clock.onAdvance(onTestClock::clockMoved);
				template.close();
				return onTestClock;
			}

		};
	}

}
