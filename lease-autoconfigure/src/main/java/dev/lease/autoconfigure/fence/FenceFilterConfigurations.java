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

import java.time.InstantSource;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingFilterBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

import dev.lease.fence.FenceRefusalListener;
import dev.lease.fence.http.FenceServletFilter;
import dev.lease.fence.http.FenceWebFilter;

/**
 * The {@code Lease-Fence} server filters, imported by {@link FenceAutoConfiguration}: in
 * a servlet web application a {@link FenceServletFilter} registration, in a reactive one
 * a {@link FenceWebFilter} bean, each judging on this server's clock and reporting
 * refusals to the application's {@link FenceRefusalListener}. A request without the
 * header passes unless {@code lease.fenced-server.require-fence} is set, so the filter
 * changes nothing for a request that carries no fence.
 * {@code lease.fenced-server.enabled=false} turns them off; a filter of the application's
 * own makes them back off.
 * <p>
 * The client side is not auto-configured: its interceptor is per fenced party, and one
 * added to every client would either fail each request made outside a fenced call or hand
 * one party's fence to another service (Fence 8).
 *
 * @author Lease contributors
 */
final class FenceFilterConfigurations {

	static final String ENABLED = "lease.fenced-server.enabled";

	private static final String DEFAULT_PARTY = "application";

	private FenceFilterConfigurations() {
	}

	static String party(LeaseFenceProperties properties, Environment environment) {
		String party = properties.fencedServer().party();
		if (StringUtils.hasText(party)) {
			return party;
		}
		String application = environment.getProperty("spring.application.name");
		return StringUtils.hasText(application) ? application : DEFAULT_PARTY;
	}

	// Every type outside our jars is named, never a class literal: a literal of an absent
	// class is dropped when the class is introspected by reflection (a user's context
	// runner test), and the configuration would then be processed without it.
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(name = { "jakarta.servlet.Filter", "org.springframework.web.filter.OncePerRequestFilter" })
	@ConditionalOnBooleanProperty(name = ENABLED, matchIfMissing = true)
	static class ServletFilterConfiguration {

		// Ordered last: the later the fence is judged, the nearer the judgement is to the
		// work it guards.
		@Bean
		@ConditionalOnMissingFilterBean(FenceServletFilter.class)
		FilterRegistrationBean<FenceServletFilter> leaseFenceServletFilter(LeaseFenceProperties properties,
				Environment environment, FenceRefusalListener listener) {
			FenceServletFilter filter = new FenceServletFilter(party(properties, environment), InstantSource.system(),
					listener);
			filter.setRequired(properties.fencedServer().requireFence());
			FilterRegistrationBean<FenceServletFilter> registration = new FilterRegistrationBean<>(filter);
			registration.setName("leaseFenceServletFilter");
			registration.setOrder(Ordered.LOWEST_PRECEDENCE);
			return registration;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(name = { "org.springframework.web.server.WebFilter", "reactor.core.publisher.Mono" })
	@ConditionalOnBooleanProperty(name = ENABLED, matchIfMissing = true)
	static class WebFilterConfiguration {

		@Bean
		@ConditionalOnMissingBean
		FenceWebFilter leaseFenceWebFilter(LeaseFenceProperties properties, Environment environment,
				FenceRefusalListener listener) {
			FenceWebFilter filter = new FenceWebFilter(party(properties, environment), InstantSource.system(),
					listener);
			filter.setRequired(properties.fencedServer().requireFence());
			return filter;
		}

	}

}
