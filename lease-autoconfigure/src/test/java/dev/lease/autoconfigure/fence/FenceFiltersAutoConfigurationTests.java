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

package dev.lease.autoconfigure.fence;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;

import dev.lease.fence.http.FenceServletFilter;
import dev.lease.fence.http.FenceWebFilter;
import dev.lease.fence.http.LeaseFenceHeader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the {@code Lease-Fence} filters are registered by auto-configuration: in a
 * servlet application (on a real server) and in a reactive one, each judging the header
 * on the server's clock, answering {@code 409} for a fence that has passed, counting the
 * refusal, and absent when {@code lease.fenced-server.enabled=false}.
 *
 * @author Lease contributors
 */
class FenceFiltersAutoConfigurationTests {

	private static final String PASSED = "2020-01-01T00:00:00Z";

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@Test
	@DisplayName("Fence 3, 4: in a servlet application the filter is registered, answers 409 for a passed fence "
			+ "and counts the refusal under spring.application.name")
	void servletFilterIsRegisteredAnswers409AndCounts() throws Exception {
		try (ConfigurableApplicationContext context = servlet("spring.application.name=orders-api")) {
			assertThat(context.getBeansOfType(FilterRegistrationBean.class).values()).anySatisfy(
					(registration) -> assertThat(registration.getFilter()).isInstanceOf(FenceServletFilter.class));
			HttpResponse<String> refused = post(context, PASSED);
			assertThat(refused.statusCode()).isEqualTo(409);
			assertThat(refused.headers().firstValue("Content-Type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
			assertThat(refused.body()).contains("orders-api").contains(PASSED);
			assertThat(context.getBean(Orders.class).settled.get()).isZero();
			assertThat(refusedCount(context, "orders-api")).isEqualTo(1);
			HttpResponse<String> admitted = post(context, Instant.now().plusSeconds(60).toString());
			assertThat(admitted.statusCode()).isEqualTo(200);
			assertThat(post(context, null).statusCode()).isEqualTo(200);
			assertThat(context.getBean(Orders.class).settled.get()).isEqualTo(2);
			assertThat(refusedCount(context, "orders-api")).isEqualTo(1);
		}
	}

	@Test
	@DisplayName("Fence 4: lease.fenced-server.require-fence answers 428 to a request without the header")
	void servletFilterRequiresTheHeaderWhenAsked() throws Exception {
		try (ConfigurableApplicationContext context = servlet("lease.fenced-server.require-fence=true")) {
			assertThat(post(context, null).statusCode()).isEqualTo(428);
			assertThat(context.getBean(Orders.class).settled.get()).isZero();
		}
	}

	@Test
	@DisplayName("lease.fenced-server.enabled=false: no servlet filter, a passed fence reaches the handler")
	void servletFilterIsAbsentWhenDisabled() throws Exception {
		try (ConfigurableApplicationContext context = servlet("lease.fenced-server.enabled=false")) {
			assertThat(context.getBeansOfType(FilterRegistrationBean.class).values()).noneSatisfy(
					(registration) -> assertThat(registration.getFilter()).isInstanceOf(FenceServletFilter.class));
			assertThat(post(context, PASSED).statusCode()).isEqualTo(200);
			assertThat(context.getBean(SimpleMeterRegistry.class).find("lease.fence.refused").counter()).isNull();
		}
	}

	@Test
	@DisplayName("A servlet application without spring.application.name judges as the party 'application', "
			+ "or as lease.fenced-server.party")
	void servletPartyNameDefaults() {
		WebApplicationContextRunner runner = new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, FenceAutoConfiguration.class))
			.withBean(SimpleMeterRegistry.class);
		runner.run((context) -> assertThat(refusalBody(context)).contains("the clock of 'application'"));
		runner.withPropertyValues("spring.application.name=orders-api", "lease.fenced-server.party=orders-service")
			.run((context) -> assertThat(refusalBody(context)).contains("the clock of 'orders-service'"));
	}

	private static String refusalBody(ApplicationContext context) throws Exception {
		FilterRegistrationBean<?> registration = context.getBean(FilterRegistrationBean.class);
		assertThat(registration.getFilter()).isInstanceOf(FenceServletFilter.class);
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/orders");
		request.addHeader(LeaseFenceHeader.NAME, PASSED);
		MockHttpServletResponse response = new MockHttpServletResponse();
		registration.getFilter().doFilter(request, response, new MockFilterChain());
		assertThat(response.getStatus()).isEqualTo(409);
		return response.getContentAsString();
	}

	@Test
	@DisplayName("Fence 3, 4: in a reactive application the web filter is registered, answers 409 for a passed "
			+ "fence and counts the refusal")
	void webFilterIsRegisteredAnswers409AndCounts() {
		reactive().withPropertyValues("spring.application.name=orders-api").run((context) -> {
			assertThat(context).hasSingleBean(FenceWebFilter.class);
			HttpHandler handler = WebHttpHandlerBuilder.applicationContext(context).build();
			MockServerHttpResponse refused = exchange(handler, PASSED);
			assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
			assertThat(refused.getBodyAsString().block()).contains("orders-api").contains(PASSED);
			assertThat(refusedCount(context, "orders-api")).isEqualTo(1);
			assertThat(exchange(handler, Instant.now().plusSeconds(60).toString()).getStatusCode())
				.isEqualTo(HttpStatus.OK);
			assertThat(context.getBean(CountingWebHandler.class).handled).hasSize(1);
			assertThat(refusedCount(context, "orders-api")).isEqualTo(1);
		});
	}

	@Test
	@DisplayName("lease.fenced-server.enabled=false: no web filter, a passed fence reaches the handler")
	void webFilterIsAbsentWhenDisabled() {
		reactive().withPropertyValues("lease.fenced-server.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(FenceWebFilter.class);
			assertThat(context.getBeansOfType(WebFilter.class)).isEmpty();
			HttpHandler handler = WebHttpHandlerBuilder.applicationContext(context).build();
			assertThat(exchange(handler, PASSED).getStatusCode()).isEqualTo(HttpStatus.OK);
		});
	}

	@Test
	@DisplayName("Fence 3: a servlet filter the application declares without the listener counts its refusals; "
			+ "ours backs off")
	void applicationsOwnServletFilterCountsAndOursBacksOff() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, FenceAutoConfiguration.class))
			.withBean(SimpleMeterRegistry.class)
			.withBean("ordersFenceFilter", FenceServletFilter.class, () -> new FenceServletFilter("orders-api"))
			.run((context) -> {
				assertThat(context.getBeansOfType(FilterRegistrationBean.class)).isEmpty();
				MockHttpServletRequest request = new MockHttpServletRequest("POST", "/orders");
				request.addHeader(LeaseFenceHeader.NAME, PASSED);
				MockHttpServletResponse response = new MockHttpServletResponse();
				context.getBean(FenceServletFilter.class).doFilter(request, response, new MockFilterChain());
				assertThat(response.getStatus()).isEqualTo(409);
				assertThat(refusedCount(context, "orders-api")).isEqualTo(1);
			});
	}

	@Test
	@DisplayName("Fence 3: a web filter the application declares without the listener counts its refusals; "
			+ "ours backs off")
	void applicationsOwnWebFilterCountsAndOursBacksOff() {
		reactive().withBean("ordersFenceFilter", FenceWebFilter.class, () -> new FenceWebFilter("orders-api"))
			.run((context) -> {
				assertThat(context).hasSingleBean(FenceWebFilter.class).hasBean("ordersFenceFilter");
				HttpHandler handler = WebHttpHandlerBuilder.applicationContext(context).build();
				assertThat(exchange(handler, PASSED).getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
				assertThat(refusedCount(context, "orders-api")).isEqualTo(1);
			});
	}

	@Test
	@DisplayName("Outside a web application no fence filter is registered")
	void noFilterOutsideAWebApplication() {
		new org.springframework.boot.test.context.runner.ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, FenceAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(FilterRegistrationBean.class)
				.doesNotHaveBean(FenceWebFilter.class));
	}

	private static ReactiveWebApplicationContextRunner reactive() {
		return new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, FenceAutoConfiguration.class))
			.withBean(SimpleMeterRegistry.class)
			.withBean(WebHttpHandlerBuilder.WEB_HANDLER_BEAN_NAME, CountingWebHandler.class, CountingWebHandler::new);
	}

	private static MockServerHttpResponse exchange(HttpHandler handler, String fence) {
		MockServerHttpRequest request = MockServerHttpRequest.post("/orders")
			.header(LeaseFenceHeader.NAME, fence)
			.build();
		MockServerHttpResponse response = new MockServerHttpResponse();
		handler.handle(request, response).block(Duration.ofSeconds(10));
		return response;
	}

	private static double refusedCount(ApplicationContext context, String party) {
		Counter counter = context.getBean(SimpleMeterRegistry.class)
			.find("lease.fence.refused")
			.tag("party", party)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private static ConfigurableApplicationContext servlet(String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0"));
		all.addAll(List.of(properties));
		return new SpringApplicationBuilder(ServletApplication.class).properties(all.toArray(String[]::new)).run();
	}

	private HttpResponse<String> post(ApplicationContext context, @Nullable String fence) throws Exception {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/orders"))
			.POST(HttpRequest.BodyPublishers.noBody());
		if (fence != null) {
			request.header(LeaseFenceHeader.NAME, fence);
		}
		return this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ TomcatServletWebServerAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
			WebMvcAutoConfiguration.class, AopAutoConfiguration.class, FenceAutoConfiguration.class })
	static class ServletApplication {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

	@RestController
	static class Orders {

		final AtomicInteger settled = new AtomicInteger();

		@PostMapping("/orders")
		String settle() {
			this.settled.incrementAndGet();
			return "settled";
		}

	}

	static class CountingWebHandler implements WebHandler {

		final List<String> handled = new ArrayList<>();

		@Override
		public Mono<Void> handle(org.springframework.web.server.ServerWebExchange exchange) {
			this.handled.add(exchange.getRequest().getPath().value());
			exchange.getResponse().setStatusCode(HttpStatus.OK);
			return Mono.empty();
		}

	}

}
