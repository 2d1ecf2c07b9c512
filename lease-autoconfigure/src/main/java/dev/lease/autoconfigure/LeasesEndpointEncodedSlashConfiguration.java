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

package dev.lease.autoconfigure;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;

import dev.lease.actuate.endpoint.LeasesEndpoint;

/**
 * {@link ManagementContextConfiguration Management context configuration} that lets
 * Tomcat pass an encoded slash ({@code %2F}) in a path through to the application, so
 * that {@code /actuator/leases/tenant%2F42}, the form an HTTP client that encodes a path
 * variable sends for the key {@code tenant/42}, reads that key. Tomcat rejects such a
 * path with {@code 400} by default. Loaded into the context whose server answers the
 * Actuator: the application's, or the management server's alone when it has a port of its
 * own. Only the default ({@code reject}) is changed, to {@code passthrough}: the
 * {@code %2F} reaches the application still encoded, and no path gains a segment.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
// Tomcat and Actuator types are named, never class literals (see
// RedisLeaseHostAutoConfiguration).
@ConditionalOnClass(name = { "org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory",
		"org.apache.catalina.connector.Connector" })
@ConditionalOnAvailableEndpoint(endpoint = LeasesEndpoint.class, exposure = EndpointExposure.WEB)
@ConditionalOnBooleanProperty(name = "lease.endpoint.encoded-slash-pass-through", matchIfMissing = true)
final class LeasesEndpointEncodedSlashConfiguration {

	@Bean
	WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> leasesEndpointEncodedSlashCustomizer() {
		return (factory) -> factory.addConnectorCustomizers((connector) -> {
			if ("reject".equals(connector.getEncodedSolidusHandling())) {
				connector.setEncodedSolidusHandling("passthrough");
			}
		});
	}

}
