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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import dev.lease.Allowance;
import dev.lease.Fence;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.annotation.Fenced;
import dev.lease.aop.FencedAdvisor;
import dev.lease.aop.LeasedCalls;
import dev.lease.fence.BoundFence;
import dev.lease.fence.FenceAllowances;
import dev.lease.fence.FenceBinding;
import dev.lease.fence.FenceRefusal;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link FenceWebFilter} and {@link FenceExchangeFilterFunction}: a real
 * Reactor Netty server on a random port judges the {@code Lease-Fence} header a
 * {@code WebClient} sends.
 *
 * @author Lease contributors
 */
class FenceWebFilterIntegrationTests {

	private static final String PARTY = "ledger";

	private static final Allowance ALLOWANCE = Allowance.of(Duration.ofMillis(100));

	private final InMemoryLeaseHost host = new InMemoryLeaseHost();

	private final List<@Nullable String> admitted = new CopyOnWriteArrayList<>();

	private final List<FenceRefusal> refusals = new CopyOnWriteArrayList<>();

	private @Nullable DisposableServer server;

	private @Nullable WebClient client;

	@BeforeEach
	void startServer() {
		HttpHandler handler = WebHttpHandlerBuilder.webHandler((exchange) -> {
			this.admitted.add(exchange.getRequest().getHeaders().getFirst(LeaseFenceHeader.NAME));
			return exchange.getResponse()
				.writeWith(Mono
					.just(exchange.getResponse().bufferFactory().wrap("done".getBytes(StandardCharsets.UTF_8))));
		}).filter(new FenceWebFilter(PARTY, InstantSource.system(), this.refusals::add)).build();
		this.server = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.handle(new ReactorHttpHandlerAdapter(handler))
			.bindNow();
		this.client = WebClient.builder()
			.baseUrl("http://127.0.0.1:" + this.server.port())
			.filter(new FenceExchangeFilterFunction(PARTY))
			.build();
	}

	@AfterEach
	void stopServer() {
		if (this.server != null) {
			this.server.disposeNow();
		}
	}

	@Test
	@DisplayName("Fence 3, 4: a request well inside the fence is admitted by the WebFlux server")
	void earlyRequestIsAdmitted() {
		Lease lease = take(Duration.ofSeconds(30));
		Fence fence = Fence.mint(lease, ALLOWANCE);
		assertThat(post(lease, fence)).isEqualTo("200 done");
		assertThat(this.admitted).containsExactly(fence.instant().toString());
	}

	@Test
	@DisplayName("A fence carried to a service (Fence 3, 4, 10): a paused holder's late request is refused by "
			+ "the WebFlux server with 409 and a problem detail")
	void lateRequestIsRefusedWithConflict() throws Exception {
		Lease lease = take(Duration.ofMillis(300));
		Fence fence = Fence.mint(lease, ALLOWANCE);
		// The holder pauses on purpose, past its term.
		Thread.sleep(500);
		assertThat(post(lease, fence)).startsWith("409 ")
			.contains("\"status\":409")
			.contains("\"fence\":\"" + fence.instant() + "\"");
		assertThat(this.admitted).isEmpty();
		assertThat(this.refusals).singleElement().satisfies((refusal) -> assertThat(refusal.party()).isEqualTo(PARTY));
	}

	@Test
	@DisplayName("Fence 2, 8: a reactive @Fenced method carries its fence in the pipeline, subscribed on another "
			+ "thread after the call returned")
	void reactiveFencedMethodCarriesItsFenceIntoThePipeline() throws Exception {
		ProxyFactory factory = new ProxyFactory(new LedgerClient(this.client));
		factory.addInterface(Ledger.class);
		factory.addAdvisor(new FencedAdvisor(FenceAllowances.of(Map.of(PARTY, ALLOWANCE))));
		Ledger ledger = (Ledger) factory.getProxy();
		Lease lease = take(Duration.ofSeconds(30));
		Mono<String> call = LeasedCalls.within(lease, ledger::post);
		assertThat(FenceBinding.current()).isNull();
		String answer = call.subscribeOn(Schedulers.boundedElastic()).block(Duration.ofSeconds(10));
		assertThat(answer).isEqualTo("200 done");
		assertThat(this.admitted).containsExactly(Fence.mint(lease, ALLOWANCE).instant().toString());
	}

	@Test
	@DisplayName("Fence 2: with no fence for the party the WebClient request is not sent")
	void requestWithoutFenceIsNotSent() {
		assertThatIllegalStateException()
			.isThrownBy(
					() -> this.client.post().uri("/work").retrieve().toBodilessEntity().block(Duration.ofSeconds(10)))
			.withMessageContaining(PARTY);
		assertThat(this.admitted).isEmpty();
	}

	private String post(Lease lease, Fence fence) {
		try (FenceBinding.Scope scope = FenceBinding.bind(new BoundFence(PARTY, lease.key(), fence))) {
			return this.client.post()
				.uri("/work")
				.exchangeToMono((response) -> response.bodyToMono(String.class)
					.defaultIfEmpty("")
					.map((body) -> response.statusCode().value() + " " + body))
				.block(Duration.ofSeconds(10));
		}
	}

	private Lease take(Duration duration) {
		LeaseKey key = LeaseKey.of("fence-" + UUID.randomUUID());
		return ((Taken) this.host.tryTake(key, LeaseHolder.of("holder-" + UUID.randomUUID()), duration)).lease();
	}

	interface Ledger {

		Mono<String> post();

	}

	@Fenced(PARTY)
	static final class LedgerClient implements Ledger {

		private final WebClient client;

		LedgerClient(WebClient client) {
			this.client = client;
		}

		@Override
		public Mono<String> post() {
			return this.client.post()
				.uri("/work")
				.exchangeToMono((response) -> response.bodyToMono(String.class)
					.defaultIfEmpty("")
					.map((body) -> response.statusCode().value() + " " + body));
		}

	}

}
