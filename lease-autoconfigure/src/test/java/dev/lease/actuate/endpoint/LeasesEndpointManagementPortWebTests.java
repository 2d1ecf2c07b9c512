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

package dev.lease.actuate.endpoint;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Taken;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeasesEndpoint} served on a management port of its own, through real
 * HTTP calls.
 *
 * @author Lease contributors
 */
@SpringBootTest(classes = LeasesEndpointWebTests.Application.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "management.endpoints.web.exposure.include=leases",
				"lease.host=memory" })
class LeasesEndpointManagementPortWebTests {

	@LocalManagementPort
	private int managementPort;

	@Autowired
	private LeaseHost host;

	@Test
	@DisplayName("Operation 8: the management server of its own reads a key whose '/' a client percent-encodes")
	void getLeaseByKeyWithPercentEncodedSlashesOnTheManagementPortAnswersTheGrant() throws Exception {
		String key = "tenant/" + UUID.randomUUID();
		assertThat(this.host.tryTake(LeaseKey.of(key), LeaseHolder.of("worker"), Duration.ofSeconds(30)))
			.isInstanceOf(Taken.class);
		HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
		URI uri = URI.create("http://localhost:" + this.managementPort + "/actuator/leases/" + key.replace("/", "%2F"));
		HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri).GET().build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(uri.toString()).isEqualTo(200);
		assertThat(response.body()).contains("\"key\":\"" + key + "\"");
	}

}
