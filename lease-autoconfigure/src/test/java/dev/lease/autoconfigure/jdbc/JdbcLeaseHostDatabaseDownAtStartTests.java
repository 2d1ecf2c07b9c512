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

package dev.lease.autoconfigure.jdbc;

import java.time.Duration;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.health.LeaseHostHealthContributorAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.health.LeaseHostHealthIndicator;
import dev.lease.host.jdbc.JdbcLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link JdbcLeaseHostAutoConfiguration} when the database does not answer at
 * start-up (a closed port): the application starts, its warning names the database and
 * what to check, the {@code lease} health indicator reports the host down with the cause,
 * and every operation throws {@link LeaseHostException}.
 *
 * @author Lease contributors
 */
@ExtendWith(OutputCaptureExtension.class)
class JdbcLeaseHostDatabaseDownAtStartTests {

	static final String CLOSED_PORT_URL = "jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(JdbcLeaseHostAutoConfiguration.class, InMemoryLeaseHostAutoConfiguration.class,
						LeaseAutoConfiguration.class, LeaseHostHealthContributorAutoConfiguration.class))
		.withBean(DataSource.class, () -> new SimpleDriverDataSource(new org.postgresql.Driver(), CLOSED_PORT_URL));

	@Test
	void applicationStartsWithTheDatabaseDownAndReportsTheHostDown(CapturedOutput output) {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			JdbcLeaseHost host = context.getBean(JdbcLeaseHost.class);
			Health health = context.getBean(LeaseHostHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(String.valueOf(health.getDetails().get("error"))).contains(LeaseHostException.class.getName());
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.take(LeaseKey.of("down"), LeaseHolder.of("h"), Duration.ofSeconds(5)))
				.withMessageContaining("database");
			assertThatExceptionOfType(LeaseHostException.class)
				.isThrownBy(() -> host.tryTake(LeaseKey.of("down"), LeaseHolder.of("h"), Duration.ofSeconds(5)));
			assertThat(output).contains("Connection to 127.0.0.1:1 refused")
				.contains("The database at jdbc:postgresql://127.0.0.1:1/none is unreachable (")
				.contains("check that it is running and that spring.datasource.* points to it");
		});
	}

	@Test
	void initializeSchemaAlwaysIsSkippedWithAWarningWhenTheDatabaseIsDown(CapturedOutput output) {
		this.runner.withPropertyValues("lease.jdbc.initialize-schema=always").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(JdbcLeaseHost.class);
			assertThat(output).contains("lease.jdbc.initialize-schema");
		});
	}

}
