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

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeaseConfigurationFailureAnalyzer}.
 *
 * @author Lease contributors
 */
class LeaseConfigurationFailureAnalyzerTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(LeaseAutoConfiguration.class, InMemoryLeaseHostAutoConfiguration.class));

	@Test
	void hostNamedButNotCreatedIsExplainedWithAnAction() {
		this.runner.withPropertyValues("lease.host=redis").run((context) -> {
			FailureAnalysis analysis = new LeaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription())
				.isEqualTo("lease.host is 'redis' but no redis lease host could be created");
			assertThat(analysis.getAction()).contains("RedisConnectionFactory").contains("choose another lease.host");
		});
	}

	@Test
	void noHostAtAllIsExplainedWithAnAction() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LeaseAutoConfiguration.class))
			.run((context) -> {
				FailureAnalysis analysis = new LeaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).isEqualTo("No LeaseHost is available");
				assertThat(analysis.getAction()).contains("set lease.host to redis, jdbc or memory");
			});
	}

}
