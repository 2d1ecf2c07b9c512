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

import java.time.Duration;

import javax.sql.DataSource;

import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

import dev.lease.LeaseHost;
import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AutoConfigureLeaseTesting} on a {@code @SpringBootTest} of an application with a
 * {@link DataSource} and a {@code LeaseHost} bean of its own, fully auto-configured: the
 * test's leases are on the testing host, as the documentation's example has them.
 *
 * @author Lease contributors
 */
@SpringBootTest(webEnvironment = WebEnvironment.NONE)
@AutoConfigureLeaseTesting
class AutoConfigureLeaseTestingApplicationTests {

	@Autowired
	private ApplicationContext context;

	@Autowired
	private TestLeaseClock clock;

	@Autowired
	private NightlyReport report;

	@Test
	void applicationsLeasesAreTakenOnTheTestingHostOnly() {
		assertThat(this.context.getBeanNamesForType(LeaseHost.class)).containsExactly("testLeaseHost");
		assertThat(this.report.run()).isEqualTo("ran");
		assertThat(this.report.run()).as("held for its term").isNull();
		// only the testing host reads the test clock
		this.clock.advance(Duration.ofHours(1));
		assertThat(this.report.run()).as("the term has passed").isEqualTo("ran");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class OrdersApplication {

		@Bean
		DataSource ordersDataSource() {
			JdbcDataSource dataSource = new JdbcDataSource();
			dataSource.setURL("jdbc:h2:mem:orders-lease-testing-application");
			return dataSource;
		}

		@Bean
		LeaseHost ordersLeaseHost() {
			return new InMemoryLeaseHost();
		}

		@Bean
		NightlyReport nightlyReport() {
			return new NightlyReport();
		}

	}

	static class NightlyReport {

		@Leased(key = "'nightly-report'", duration = "1h", holdAtLeast = "1h", mode = LeaseMode.TRY_TAKE,
				onUnavailable = OnUnavailable.SKIP)
		String run() {
			return "ran";
		}

	}

}
