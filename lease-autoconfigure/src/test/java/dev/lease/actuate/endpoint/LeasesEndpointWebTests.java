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

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.assertj.core.api.AbstractStringAssert;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.autoconfigure.LeasedJobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeasesEndpoint}, the {@code lease} health contributor and the lease
 * meters, through real HTTP calls to an application on a random port.
 *
 * @author Lease contributors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=leases,health",
				"management.endpoint.leases.show-values=always", "management.endpoint.health.show-details=always",
				"lease.host=memory" })
class LeasesEndpointWebTests {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	private int port;

	@Autowired
	private LeaseHost host;

	@Autowired
	private LeasedJobs jobs;

	@Autowired
	private MeterRegistry meters;

	@Test
	@DisplayName("Operation 8: GET /actuator/leases lists a standing grant with its holder, expiresAt and remaining")
	void getLeasesListsStandingGrants() throws Exception {
		String key = fresh();
		String holder = "worker-" + fresh();
		take(key, holder);
		HttpResponse<String> response = get("/actuator/leases");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"key\":\"" + key + "\"")
			.contains("\"holder\":\"" + holder + "\"")
			.contains("\"expiresAt\"")
			.contains("\"remaining\"");
	}

	@Test
	void getLeasesIsBoundedByLimit() throws Exception {
		take(fresh(), fresh());
		take(fresh(), fresh());
		HttpResponse<String> response = get("/actuator/leases?limit=1");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body().split("\"key\"", -1)).hasSize(2);
	}

	@Test
	@DisplayName("Grants 1: GET /actuator/leases?limit=&cursor= answers a page and the cursor of the next one")
	void getLeasesPagesThroughTheCursor() throws Exception {
		take(fresh(), fresh());
		take(fresh(), fresh());
		HttpResponse<String> first = get("/actuator/leases?limit=1");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.body()).contains("\"readAt\"");
		Matcher next = Pattern.compile("\"next\":\"([^\"]+)\"").matcher(first.body());
		assertThat(next.find()).as(first.body()).isTrue();
		HttpResponse<String> second = get("/actuator/leases?limit=1&cursor=" + next.group(1));
		assertThat(second.statusCode()).isEqualTo(200);
		assertThat(second.body().split("\"key\"", -1)).hasSize(2);
		assertThat(get("/actuator/leases?cursor=" + fresh() + "!").statusCode()).isEqualTo(400);
	}

	@Test
	void getLeasesWithALimitOutsideItsRangeIsABadRequestWhoseBodyNamesTheRange() throws Exception {
		for (String limit : new String[] { "0", "-1", "10001" }) {
			HttpResponse<String> response = get("/actuator/leases?limit=" + limit);
			assertThat(response.statusCode()).as("limit=" + limit).isEqualTo(400);
			assertThat(response.body()).as("limit=" + limit)
				.contains("'limit' must be between 1 and 10000, but was " + limit);
		}
	}

	@Test
	@DisplayName("Operation 8: GET /actuator/leases/{key} reads a key that contains '/' as it is listed")
	void getLeaseByKeyWithSlashesAnswersTheGrant() throws Exception {
		String key = "tenant/" + fresh() + "/orders";
		take(key, fresh());
		HttpResponse<String> response = get("/actuator/leases/" + key);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"key\":\"" + key + "\"");
	}

	@Test
	@DisplayName("Operation 8: GET /actuator/leases/{key} reads a key with characters a URL encodes, segment by segment")
	void getLeaseByKeyWithEncodedCharactersAnswersTheGrant() throws Exception {
		String key = "tenant/50%41 off?#/" + fresh();
		take(key, fresh());
		String path = Arrays.stream(key.split("/"))
			.map((segment) -> URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"))
			.collect(Collectors.joining("/"));
		HttpResponse<String> response = get("/actuator/leases/" + path);
		assertThat(response.statusCode()).as(path).isEqualTo(200);
		assertThat(response.body()).contains("50%41 off?#/");
	}

	@Test
	@DisplayName("Operation 8: GET /actuator/leases/{key} reads a key whose '/' a client percent-encodes, as a RestClient does")
	void getLeaseByKeyWithPercentEncodedSlashesAnswersTheGrant() throws Exception {
		String key = "tenant/" + fresh() + "/50%41 off?#";
		take(key, fresh());
		String encoded = URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20");
		HttpResponse<String> response = get("/actuator/leases/" + encoded);
		assertThat(response.statusCode()).as(encoded).isEqualTo(200);
		assertThat(response.body()).contains("\"key\":\"" + key + "\"");
		ResponseEntity<String> viaRestClient = RestClient.create("http://localhost:" + this.port)
			.get()
			.uri("/actuator/leases/{key}", key)
			.exchange((request, answer) -> ResponseEntity.status(answer.getStatusCode())
				.body(answer.bodyTo(String.class)), true);
		assertThat(viaRestClient.getStatusCode().value()).as(key).isEqualTo(200);
		assertThat(viaRestClient.getBody()).contains("\"key\":\"" + key + "\"");
	}

	@Test
	@DisplayName("Identity 2: a binary key is read back through the form the listing prints")
	void getLeaseByTheListedFormOfABinaryKeyAnswersTheGrant() throws Exception {
		byte[] key = new byte[] { (byte) 0xfb, (byte) 0xff, (byte) 0xbf, (byte) 0xc3, 0x28, 0, 0, 0, 0 };
		System.arraycopy(UUID.randomUUID().toString().getBytes(), 0, key, 5, 4);
		assertThat(this.host.tryTake(LeaseKey.of(key), LeaseHolder.of(fresh()), Duration.ofSeconds(30)))
			.isInstanceOf(Taken.class);
		String listed = this.host.grants(null, LeasesEndpoint.MAXIMUM_LIMIT)
			.grants()
			.stream()
			.filter((lease) -> Arrays.equals(lease.key().bytes(), key))
			.map((lease) -> LeasesEndpoint.display(lease.key()))
			.findFirst()
			.orElseThrow();
		HttpResponse<String> list = get("/actuator/leases?limit=" + LeasesEndpoint.MAXIMUM_LIMIT);
		assertThat(list.body()).contains("\"key\":\"" + listed + "\"");
		HttpResponse<String> response = get("/actuator/leases/" + listed);
		assertThat(response.statusCode()).as(listed).isEqualTo(200);
		assertThat(response.body()).contains("\"key\":\"" + listed + "\"");
	}

	@Test
	void getLeaseByKeyAnswersTheGrant() throws Exception {
		String key = fresh();
		take(key, fresh());
		HttpResponse<String> response = get("/actuator/leases/" + key);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"key\":\"" + key + "\"");
	}

	@Test
	@DisplayName("Identity 2: a binary key is printed as URL-safe Base64 with a marker, and selected so or in the earlier standard form")
	void getLeaseByBase64KeyAnswersTheGrant() throws Exception {
		byte[] key = { (byte) 0xc3, 0x28 };
		assertThat(this.host.tryTake(LeaseKey.of(key), LeaseHolder.of(fresh()), Duration.ofSeconds(30)))
			.isInstanceOf(Taken.class);
		for (String printed : new String[] { "base64url:wyg", "base64:wyg=" }) {
			HttpResponse<String> response = get("/actuator/leases/" + printed);
			assertThat(response.statusCode()).as(printed).isEqualTo(200);
			assertThat(response.body()).contains("\"key\":\"base64url:wyg\"");
		}
	}

	@Test
	@DisplayName("State 2: GET /actuator/leases/{key} on a key with no standing grant is 404")
	void getLeaseOfAFreeKeyIsNotFound() throws Exception {
		assertThat(get("/actuator/leases/" + fresh()).statusCode()).isEqualTo(404);
	}

	@Test
	@DisplayName("State 2: a 404 says, in a problem body, that no grant stands on the key")
	void getLeaseOfAFreeKeyAnswersAProblemNamingTheKey() throws Exception {
		String key = "tenant/" + fresh();
		HttpResponse<String> response = get("/actuator/leases/" + key);
		assertThat(response.statusCode()).isEqualTo(404);
		assertThatIsAProblem(response, 404).contains("\"detail\":\"No grant stands on key '" + key + "'\"");
	}

	@Test
	void badRequestsAnswerAProblemSayingWhatWasWrong() throws Exception {
		assertThatIsAProblem(get("/actuator/leases?limit=0"), 400)
			.contains("'limit' must be between 1 and 10000, but was 0");
		assertThatIsAProblem(get("/actuator/leases?cursor=" + fresh() + "!"), 400).contains("'cursor'");
		assertThatIsAProblem(get("/actuator/leases/base64url:!!"), 400).contains("not valid Base64");
	}

	@Test
	void leasesAnswerWhenAGrantBeganItsRemainingTermInMillisecondsAndThatTheTotalIsNotCounted() throws Exception {
		String key = fresh();
		take(key, fresh());
		String page = get("/actuator/leases?limit=" + LeasesEndpoint.MAXIMUM_LIMIT).body();
		assertThat(page).contains("\"totalCounted\":false").doesNotContain("\"total\":");
		String one = get("/actuator/leases/" + key).body();
		Matcher millis = Pattern.compile("\"remainingMillis\":(\\d+)").matcher(one);
		assertThat(millis.find()).as(one).isTrue();
		assertThat(Long.parseLong(millis.group(1))).isPositive().isLessThanOrEqualTo(30_000);
		assertThat(one).contains("\"remaining\":\"PT");
		assertThat(one).as("the host is observed: a grant taken through it shows when it began")
			.contains("\"grantedAt\":\"");
	}

	@Test
	@DisplayName("Waiting 1: GET /actuator/leases/{key} shows how many takes wait for the key")
	void leaseShowsHowManyTakesWait() throws Exception {
		String key = fresh();
		take(key, fresh());
		assertThat(get("/actuator/leases/" + key).body()).contains("\"waiting\":0").doesNotContain("waitingSince");
		Thread waiter = new Thread(() -> {
			try {
				this.host.take(LeaseKey.of(key), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		waiter.start();
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(get("/actuator/leases/" + key).body()).contains("\"waiting\":1"));
		assertThat(get("/actuator/leases").body()).doesNotContain("\"waiting\"");
		waiter.interrupt();
		waiter.join(Duration.ofSeconds(30).toMillis());
	}

	@Test
	@DisplayName("Invariant 2.2: the endpoint has no write or delete operation")
	void writeAndDeleteAreNotAllowed() throws Exception {
		String key = fresh();
		take(key, fresh());
		HttpResponse<String> post = send(HttpRequest.newBuilder(uri("/actuator/leases/" + key))
			.POST(HttpRequest.BodyPublishers.ofString("{}"))
			.header("Content-Type", "application/json")
			.build());
		HttpResponse<String> delete = send(HttpRequest.newBuilder(uri("/actuator/leases/" + key)).DELETE().build());
		assertThat(post.statusCode()).isEqualTo(405);
		assertThat(delete.statusCode()).isEqualTo(405);
		assertThat(get("/actuator/leases/" + key).statusCode()).isEqualTo(200);
	}

	@Test
	void healthReportsTheLeaseHost() throws Exception {
		HttpResponse<String> response = get("/actuator/health/lease");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"status\":\"UP\"").contains("\"host\":\"memory\"");
	}

	@Test
	void leasedCallsAreMetered() {
		Timer taken = this.meters.find("lease.take").tags("lease.host", "memory", "lease.outcome", "taken").timer();
		long before = (taken != null) ? taken.count() : 0;
		this.jobs.standing(fresh());
		assertThat(this.meters.get("lease.take").tags("lease.host", "memory", "lease.outcome", "taken").timer().count())
			.isEqualTo(before + 1);
	}

	private static AbstractStringAssert<?> assertThatIsAProblem(HttpResponse<String> response, int status) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).as("Content-Type")
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		return assertThat(response.body()).contains("\"status\":" + status);
	}

	private void take(String key, String holder) {
		assertThat(this.host.tryTake(LeaseKey.of(key), LeaseHolder.of(holder), Duration.ofSeconds(30)))
			.isInstanceOf(Taken.class);
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(uri(path)).GET().build());
	}

	private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

	private static String fresh() {
		return UUID.randomUUID().toString();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

		@Bean
		LeasedJobs leasedJobs(LeaseHost host) {
			return new LeasedJobs(host);
		}

	}

}
