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

package dev.lease.sample;

import java.time.Duration;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeaseSampleApplication}: the demonstration's outcome, and the
 * endpoints over real HTTP.
 *
 * @author Lease contributors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class LeaseSampleApplicationTests {

	@Autowired
	private Demonstration demonstration;

	@LocalServerPort
	private int port;

	@Test
	@DisplayName("Operation 1, 2: the second settlement of one order waits for the first, then runs")
	void secondSettlementWaitsThenRuns() {
		DemonstrationReport report = this.demonstration.report();
		assertThat(report.settlements()).isEqualTo(2);
		assertThat(report.slowerSettlement()).isGreaterThanOrEqualTo(Duration.ofMillis(1200));
	}

	@Test
	@DisplayName("Operation 6: of two schedulers firing at once, one runs the job and one skips")
	void oneSchedulerRunsAndOneSkips() {
		DemonstrationReport report = this.demonstration.report();
		assertThat(report.reportsGenerated()).isEqualTo(1);
		assertThat(report.reportsSkipped()).isEqualTo(1);
	}

	@Test
	@DisplayName("Fence 3: the paused holder's late write is refused and the next holder's write stands")
	void lateWriteIsRefused() {
		DemonstrationReport report = this.demonstration.report();
		assertThat(report.lateWritesRefused()).isEqualTo(1);
		assertThat(report.orderTwoSettledBy()).isEqualTo("dave");
	}

	@Test
	@DisplayName("The leases, health and metrics endpoints answer over HTTP")
	void endpointsAnswer() {
		RestClient client = RestClient.create("http://127.0.0.1:" + this.port);
		assertThat(client.get().uri("/actuator/leases").retrieve().body(String.class)).contains("leases");
		assertThat(client.get().uri("/actuator/health").retrieve().body(String.class)).contains("\"UP\"")
			.contains("lease");
		assertThat(client.get().uri("/actuator/metrics/lease.take").retrieve().body(String.class))
			.contains("lease.take");
	}

}
