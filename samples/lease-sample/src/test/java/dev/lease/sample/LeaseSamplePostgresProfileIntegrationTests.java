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

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Tests for {@link LeaseSampleApplication} with its {@code postgres} profile: the same
 * demonstration and endpoints, with leases on the server named by
 * {@code LEASE_TEST_POSTGRES_URL}, or on an embedded one when none is named.
 *
 * @author Lease contributors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ActiveProfiles("postgres")
class LeaseSamplePostgresProfileIntegrationTests extends LeaseSampleApplicationTests {

	@DynamicPropertySource
	static void server(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", SampleTestServers::postgresUrl);
	}

}
