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

package dev.lease.fence.jdbc;

import java.time.Duration;
import java.time.Instant;

import javax.sql.DataSource;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import dev.lease.host.jdbc.DatabaseClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FencedJdbcTemplate} on H2.
 *
 * @author Lease contributors
 */
class H2FencedJdbcTemplateTests extends FencedJdbcTemplateScenarios {

	private final DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(),
			"jdbc:h2:mem:fence-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");

	@Override
	protected DataSource dataSource() {
		return this.dataSource;
	}

	@Test
	@DisplayName("Fence 4: the store's clock is read as an instant, whatever the session's time zone")
	void clockReadingDoesNotDependOnTheTimeZone() {
		for (String zone : new String[] { "UTC", "America/New_York", "Asia/Kolkata" }) {
			DataSource zoned = new SimpleDriverDataSource(new org.h2.Driver(),
					"jdbc:h2:mem:fence-zone-" + System.nanoTime() + ";TIME ZONE=" + zone);
			Instant reading = DatabaseClock.H2.read(new JdbcTemplate(zoned));
			assertThat(Duration.between(reading, Instant.now()).abs()).as(zone).isLessThan(Duration.ofSeconds(2));
		}
	}

	/**
	 * The host beside the application's own use of this database.
	 */
	@Nested
	class HostConnection extends JdbcLeaseHostConnectionScenarios {

		@Override
		protected DataSource dataSource() {
			return H2FencedJdbcTemplateTests.this.dataSource();
		}

	}

}
