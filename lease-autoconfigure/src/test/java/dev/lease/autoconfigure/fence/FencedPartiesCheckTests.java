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

import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.web.client.RestClient;

import dev.lease.annotation.Fenced;
import dev.lease.autoconfigure.LeaseConfigurationException;
import dev.lease.autoconfigure.LeaseConfigurationFailureAnalyzer;
import dev.lease.fence.http.FenceClientHttpRequestInterceptor;
import dev.lease.fence.jdbc.FencedJdbcTemplate;
import dev.lease.fence.redis.FencedRedisWrites;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a fenced party the application built, whose name matches no declared
 * {@code lease.fences.<party>.allowance}, fails start-up with a report naming the party,
 * the bean and the property, instead of failing at its first write.
 *
 * @author Lease contributors
 */
class FencedPartiesCheckTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, FenceAutoConfiguration.class));

	@Test
	@DisplayName("Invariant 6: a FencedJdbcTemplate bean for an undeclared party fails start-up with the analyzer's report")
	void undeclaredTemplateBeanFailsStartUp() {
		this.contextRunner.withUserConfiguration(TemplateBeanConfiguration.class)
			.withPropertyValues("lease.fences.payments.allowance=1s")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOf(LeaseConfigurationException.class);
				FailureAnalysis analysis = new LeaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("'orders-db'")
					.contains("bean 'ordersWrites'")
					.contains("FencedJdbcTemplate");
				assertThat(analysis.getAction()).contains("lease.fences.orders-db.allowance");
			});
	}

	@Test
	@DisplayName("Invariant 6: a template held in a field of a proxied @Fenced bean, for a mistyped party, fails start-up")
	void undeclaredTemplateInAFieldOfAProxiedBeanFailsStartUp() {
		this.contextRunner.withUserConfiguration(MistypedRepositoryConfiguration.class)
			.withPropertyValues("lease.fences.orders-db.allowance=200ms")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOf(LeaseConfigurationException.class)
					.hasMessageContaining("'orders'")
					.hasMessageContaining("bean 'orderRepository'")
					.hasMessageContaining("field 'writes'")
					.hasMessageContaining("lease.fences.orders.allowance")
					.hasMessageNotContaining("'orders-db'");
			});
	}

	@Test
	@DisplayName("Invariant 6: FencedRedisWrites held by a bean, for an undeclared party, fails start-up")
	void undeclaredRedisWritesFailStartUp() {
		this.contextRunner.withUserConfiguration(RedisWritesConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(LeaseConfigurationException.class)
				.hasMessageContaining("'journal'")
				.hasMessageContaining("bean 'journal'")
				.hasMessageContaining("lease.fences.journal.allowance");
		});
	}

	@Test
	@DisplayName("Invariant 6: a RestClient bean sending the fence of an undeclared party fails start-up")
	void undeclaredHttpPartyFailsStartUp() {
		this.contextRunner.withUserConfiguration(RestClientConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(LeaseConfigurationException.class)
				.hasMessageContaining("'payments'")
				.hasMessageContaining("bean 'paymentsClient'")
				.hasMessageContaining("lease.fences.payments.allowance");
		});
	}

	@Test
	@DisplayName("Invariant 6: a party named in @Fenced with no declared allowance fails start-up with the analyzer's report")
	void undeclaredFencedAnnotationFailsStartUpWithTheAnalyzersReport() {
		this.contextRunner.withUserConfiguration(AnnotatedRepositoryConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new LeaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("'orders-db'").contains("bean 'annotatedRepository'");
			assertThat(analysis.getAction()).contains("lease.fences.orders-db.allowance");
		});
	}

	@Test
	@DisplayName("Invariant 6: every party built by the application and declared: the application starts")
	void declaredPartiesStart() {
		this.contextRunner
			.withUserConfiguration(TemplateBeanConfiguration.class, MistypedRepositoryConfiguration.class,
					RedisWritesConfiguration.class, RestClientConfiguration.class)
			.withPropertyValues("lease.fences.orders-db.allowance=200ms", "lease.fences.orders.allowance=200ms",
					"lease.fences.journal.allowance=50ms", "lease.fences.payments.allowance=1s")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	private static DataSource dataSource() {
		return new SimpleDriverDataSource(new org.h2.Driver(),
				"jdbc:h2:mem:parties-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
	}

	@Configuration(proxyBeanMethods = false)
	static class TemplateBeanConfiguration {

		@Bean
		FencedJdbcTemplate ordersWrites() {
			return new FencedJdbcTemplate(dataSource(), "orders-db");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MistypedRepositoryConfiguration {

		@Bean
		MistypedRepository orderRepository() {
			return new MistypedRepository(new FencedJdbcTemplate(dataSource(), "orders"));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RedisWritesConfiguration {

		@Bean
		Journal journal() {
			return new Journal(new FencedRedisWrites(new StringRedisTemplate(), "journal"));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RestClientConfiguration {

		@Bean
		RestClient paymentsClient() {
			return RestClient.builder().requestInterceptor(new FenceClientHttpRequestInterceptor("payments")).build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AnnotatedRepositoryConfiguration {

		@Bean
		AnnotatedRepository annotatedRepository() {
			return new AnnotatedRepository();
		}

	}

	// Proxied: the check must look through the proxy at the target's fields.
	static class MistypedRepository {

		private final FencedJdbcTemplate writes;

		MistypedRepository(FencedJdbcTemplate writes) {
			this.writes = writes;
		}

		@Fenced("orders-db")
		int save(String order) {
			return this.writes.update("INSERT INTO orders (id) VALUES (?)", order);
		}

	}

	static class Journal {

		private final List<FencedRedisWrites> writes;

		Journal(FencedRedisWrites writes) {
			this.writes = List.of(writes);
		}

		List<FencedRedisWrites> writes() {
			return this.writes;
		}

	}

	static class AnnotatedRepository {

		@Fenced("orders-db")
		void save(String order) {
		}

	}

}
