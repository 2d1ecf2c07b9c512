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

package dev.lease.fence.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.NoOpResponseErrorHandler;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import dev.lease.Allowance;
import dev.lease.Fence;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.fence.BoundFence;
import dev.lease.fence.FenceBinding;
import dev.lease.fence.FenceRefusal;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link FenceServletFilter} and {@link FenceClientHttpRequestInterceptor}: a
 * real Tomcat on a random port judges the {@code Lease-Fence} header a {@code RestClient}
 * sends.
 *
 * @author Lease contributors
 */
class FenceServletFilterIntegrationTests {

	private static final String PARTY = "payments";

	private static final Allowance ALLOWANCE = Allowance.of(Duration.ofMillis(100));

	private final InMemoryLeaseHost host = new InMemoryLeaseHost();

	private final List<@Nullable String> admitted = new CopyOnWriteArrayList<>();

	private final List<FenceRefusal> refusals = new CopyOnWriteArrayList<>();

	private @Nullable Tomcat tomcat;

	private @Nullable Path baseDir;

	private @Nullable RestClient client;

	// Tomcat 11.0.27 (Spring Boot 4.1) deprecates addServletMappingDecoded for
	// addServletMapping, which 11.0.22 (Spring Boot 4.0) does not have.
	@BeforeEach
	@SuppressWarnings("deprecation")
	void startServer() throws Exception {
		this.baseDir = Files.createTempDirectory("fence-tomcat");
		Tomcat server = new Tomcat();
		server.setBaseDir(this.baseDir.toString());
		server.setPort(0);
		server.getConnector();
		Context context = server.addContext("", this.baseDir.toString());
		Tomcat.addServlet(context, "work", new WorkServlet(this.admitted));
		context.addServletMappingDecoded("/work", "work");
		FilterDef filter = new FilterDef();
		filter.setFilterName("fence");
		filter.setFilter(new FenceServletFilter(PARTY, java.time.InstantSource.system(), this.refusals::add));
		context.addFilterDef(filter);
		FilterMap mapping = new FilterMap();
		mapping.setFilterName("fence");
		mapping.addURLPattern("/*");
		context.addFilterMap(mapping);
		server.start();
		this.tomcat = server;
		this.client = RestClient.builder()
			.baseUrl("http://127.0.0.1:" + server.getConnector().getLocalPort())
			.requestInterceptor(new FenceClientHttpRequestInterceptor(PARTY))
			.build();
	}

	@AfterEach
	void stopServer() throws Exception {
		if (this.tomcat != null) {
			this.tomcat.stop();
			this.tomcat.destroy();
		}
		if (this.baseDir != null) {
			org.springframework.util.FileSystemUtils.deleteRecursively(this.baseDir);
		}
	}

	@Test
	@DisplayName("Fence 3, 4: a request well inside the fence is admitted by the server, carrying only the fence")
	void earlyRequestIsAdmitted() {
		Lease lease = take(Duration.ofSeconds(30));
		Fence fence = Fence.mint(lease, ALLOWANCE);
		String answer = withFence(lease, fence, this::post);
		assertThat(answer).isEqualTo("200 done");
		assertThat(this.admitted).containsExactly(fence.instant().toString());
	}

	@Test
	@DisplayName("A fence carried to a service (Fence 3, 4, 10): a paused holder's late request is refused with "
			+ "409 and a problem detail")
	void lateRequestIsRefusedWithConflict() throws Exception {
		Lease lease = take(Duration.ofMillis(300));
		Fence fence = Fence.mint(lease, ALLOWANCE);
		// The holder pauses on purpose, past its term.
		Thread.sleep(500);
		String answer = withFence(lease, fence, this::post);
		assertThat(answer).startsWith("409 ")
			.contains("\"status\":409")
			.contains("\"fence\":\"" + fence.instant() + "\"")
			.contains("\"title\":\"Conflict\"");
		assertThat(this.admitted).isEmpty();
		assertThat(this.refusals).singleElement().satisfies((refusal) -> {
			assertThat(refusal.party()).isEqualTo(PARTY);
			assertThat(refusal.fence()).isEqualTo(fence.instant());
			assertThat(refusal.late()).isPositive();
		});
	}

	@Test
	@DisplayName("Fence 3, 4: RestTemplate sends the fence too: early admitted, late refused with 409")
	void restTemplateSendsTheFence() throws Exception {
		RestTemplate template = new RestTemplate();
		template.getInterceptors().add(new FenceClientHttpRequestInterceptor(PARTY));
		template.setErrorHandler(new NoOpResponseErrorHandler());
		String url = "http://127.0.0.1:" + this.tomcat.getConnector().getLocalPort() + "/work";
		Lease early = take(Duration.ofSeconds(30));
		Fence earlyFence = Fence.mint(early, ALLOWANCE);
		assertThat(withFence(early, earlyFence,
				() -> template.postForEntity(url, null, String.class).getStatusCode().value()))
			.isEqualTo(200);
		Lease late = take(Duration.ofMillis(300));
		Fence lateFence = Fence.mint(late, ALLOWANCE);
		// The holder pauses on purpose, past its term.
		Thread.sleep(500);
		assertThat(withFence(late, lateFence,
				() -> template.postForEntity(url, null, String.class).getStatusCode().value()))
			.isEqualTo(409);
		assertThat(this.admitted).containsExactly(earlyFence.instant().toString());
	}

	@Test
	@DisplayName("Fence 2: with no fence bound for the party the request is not sent")
	void requestWithoutBoundFenceIsNotSent() {
		assertThatIllegalStateException().isThrownBy(this::post).withMessageContaining(PARTY);
		assertThat(this.admitted).isEmpty();
	}

	@Test
	@DisplayName("Fence 4: a malformed fence is a bad request, never admitted")
	void malformedFenceIsBadRequest() {
		String answer = RestClient.create("http://127.0.0.1:" + this.tomcat.getConnector().getLocalPort())
			.post()
			.uri("/work")
			.header(LeaseFenceHeader.NAME, "tomorrow")
			.exchange((request, response) -> response.getStatusCode().value() + "");
		assertThat(answer).isEqualTo("400");
		assertThat(this.admitted).isEmpty();
	}

	private String post() {
		return this.client.post()
			.uri("/work")
			.exchange((request, response) -> response.getStatusCode().value() + " "
					+ new String(response.getBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
	}

	private Lease take(Duration duration) {
		LeaseKey key = LeaseKey.of("fence-" + UUID.randomUUID());
		return ((Taken) this.host.tryTake(key, LeaseHolder.of("holder-" + UUID.randomUUID()), duration)).lease();
	}

	private static <T> T withFence(Lease lease, Fence fence, java.util.function.Supplier<T> call) {
		try (FenceBinding.Scope scope = FenceBinding.bind(new BoundFence(PARTY, lease.key(), fence))) {
			return call.get();
		}
	}

	static final class WorkServlet extends HttpServlet {

		private static final long serialVersionUID = 1L;

		private final transient List<@Nullable String> admitted;

		WorkServlet(List<@Nullable String> admitted) {
			this.admitted = admitted;
		}

		@Override
		protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
			this.admitted.add(request.getHeader(LeaseFenceHeader.NAME));
			response.setStatus(200);
			response.getWriter().write("done");
		}

	}

}
