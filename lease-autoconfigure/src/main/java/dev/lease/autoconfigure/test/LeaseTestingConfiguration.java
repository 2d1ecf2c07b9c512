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

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lease.host.inmemory.InMemoryLeaseHost;

/**
 * The beans of {@link AutoConfigureLeaseTesting}: a {@link TestLeaseClock} (the test's
 * own, if it defines one) and the in-memory host that reads it.
 *
 * @author Lease contributors
 */
@Configuration(proxyBeanMethods = false)
class LeaseTestingConfiguration {

	@Bean
	@ConditionalOnMissingBean
	TestLeaseClock testLeaseClock() {
		return new TestLeaseClock();
	}

	@Bean
	InMemoryLeaseHost testLeaseHost(TestLeaseClock testLeaseClock) {
		return new InMemoryLeaseHost(testLeaseClock);
	}

}
