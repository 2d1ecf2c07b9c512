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

import javax.sql.DataSource;

import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.autoconfigure.jdbc.JdbcLeaseHostAutoConfiguration;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.host.jdbc.JdbcLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Host detection never falls back to memory in silence: an application with a
 * {@link DataSource} or a {@link RedisConnectionFactory} whose lease host detection still
 * reached memory (a store auto-configuration that did not apply, as on an unsupported
 * Spring Boot) fails start-up naming {@code lease.host}; a host that is not shared across
 * instances, chosen by detection, is a warning.
 *
 * @author Lease contributors
 */
@ExtendWith(OutputCaptureExtension.class)
class LeaseHostDetectionTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(LeaseAutoConfiguration.class, InMemoryLeaseHostAutoConfiguration.class));

	@Test
	void detectionThatReachesMemoryBesideADataSourceFailsNamingLeaseHost() {
		this.runner.withUserConfiguration(DataSourceConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			NoLeaseHostException failure = failure(context.getStartupFailure());
			assertThat(failure.getDescription()).contains("in memory")
				.contains("DataSource bean 'ordersDataSource'")
				.contains("not shared");
			assertThat(failure.getAction()).contains("lease.host=jdbc").contains("lease.host=memory");
			FailureAnalysis analysis = new LeaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getAction()).contains("lease.host");
		});
	}

	@Test
	void detectionThatReachesMemoryBesideARedisConnectionFactoryFailsNamingLeaseHost() {
		this.runner.withUserConfiguration(RedisConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			NoLeaseHostException failure = failure(context.getStartupFailure());
			assertThat(failure.getDescription()).contains("RedisConnectionFactory bean 'cacheConnectionFactory'");
			assertThat(failure.getAction()).contains("lease.host=redis").contains("lease.host=memory");
		});
	}

	@Test
	void memoryChosenByLeaseHostBesideADataSourceStarts(CapturedOutput output) {
		this.runner.withUserConfiguration(DataSourceConfiguration.class)
			.withPropertyValues("lease.host=memory")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(InMemoryLeaseHost.class);
				assertThat(output).contains("chosen by lease.host");
			});
	}

	@Test
	void embeddedDatabaseDetectedAsTheJdbcHostWarnsThatItIsNotShared(CapturedOutput output) {
		this.runner
			.withConfiguration(
					AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcLeaseHostAutoConfiguration.class))
			.withPropertyValues("spring.datasource.generate-unique-name=true")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(JdbcLeaseHost.class);
				assertThat(output).contains("WARN")
					.contains("hosted in an embedded database")
					.contains("not shared across instances")
					.contains("lease.host");
			});
	}

	@Test
	void embeddedDatabaseChosenByLeaseHostDoesNotWarn(CapturedOutput output) {
		this.runner
			.withConfiguration(
					AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcLeaseHostAutoConfiguration.class))
			.withPropertyValues("spring.datasource.generate-unique-name=true", "lease.host=jdbc")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(JdbcLeaseHost.class);
				assertThat(output).doesNotContain("hosted in an embedded database");
			});
	}

	private static NoLeaseHostException failure(Throwable failure) {
		Throwable cause = failure;
		while (cause != null && !(cause instanceof NoLeaseHostException)) {
			cause = cause.getCause();
		}
		assertThat(cause).as("a NoLeaseHostException in " + failure).isNotNull();
		return (NoLeaseHostException) cause;
	}

	@Configuration(proxyBeanMethods = false)
	static class DataSourceConfiguration {

		@Bean
		DataSource ordersDataSource() {
			JdbcDataSource dataSource = new JdbcDataSource();
			dataSource.setURL("jdbc:h2:mem:orders-detection");
			return dataSource;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RedisConfiguration {

		@Bean
		LettuceConnectionFactory cacheConnectionFactory() {
			// never started: detection must not need a connection
			LettuceConnectionFactory factory = new LettuceConnectionFactory();
			factory.setEarlyStartup(false);
			factory.setAutoStartup(false);
			return factory;
		}

	}

}
