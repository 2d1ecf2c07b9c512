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

import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeasesEndpointEncodedSlashConfiguration}.
 *
 * @author Lease contributors
 */
class LeasesEndpointEncodedSlashConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withUserConfiguration(LeasesEndpointEncodedSlashConfiguration.class);

	@Test
	void runWhenExposedOverHttpPassesAnEncodedSlashThroughInsteadOfRejectingIt() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=leases").run((context) -> {
			assertThat(context).hasSingleBean(WebServerFactoryCustomizer.class);
			assertThat(handlingOf(context.getBean(WebServerFactoryCustomizer.class), "reject"))
				.isEqualTo("passthrough");
		});
	}

	@Test
	void runWhenTheApplicationChoseAnotherHandlingLeavesIt() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=leases")
			.run((context) -> assertThat(handlingOf(context.getBean(WebServerFactoryCustomizer.class), "decode"))
				.isEqualTo("decode"));
	}

	@Test
	void runWhenNotExposedOverHttpShouldNotChangeTomcat() {
		this.runner.withPropertyValues("management.endpoints.jmx.exposure.include=leases")
			.run((context) -> assertThat(context).doesNotHaveBean(WebServerFactoryCustomizer.class));
	}

	@Test
	void runWhenTurnedOffShouldNotChangeTomcat() {
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=leases",
					"lease.endpoint.encoded-slash-pass-through=false")
			.run((context) -> assertThat(context).doesNotHaveBean(WebServerFactoryCustomizer.class));
	}

	@Test
	void runWithoutTomcatShouldNotChangeAnything() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=leases")
			.withClassLoader(new FilteredClassLoader(ConfigurableTomcatWebServerFactory.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(WebServerFactoryCustomizer.class));
	}

	@SuppressWarnings("unchecked")
	private static String handlingOf(WebServerFactoryCustomizer<?> customizer, String before) {
		TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
		((WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>) customizer).customize(factory);
		Connector connector = new Connector();
		connector.setEncodedSolidusHandling(before);
		factory.getConnectorCustomizers().forEach((connectorCustomizer) -> connectorCustomizer.customize(connector));
		return connector.getEncodedSolidusHandling();
	}

}
