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

package dev.lease.compat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * An application on Spring Boot 3 with the starter and a JDBC {@code DataSource} (the case
 * where detection used to fall back to the in-memory host in silence): start-up fails,
 * and Boot's report names the versions the starter supports.
 *
 * @author Lease contributors
 */
@ExtendWith(OutputCaptureExtension.class)
class SpringBoot3ApplicationTests {

	@Test
	void startUpFailsWithAReportNamingTheSupportedVersions(CapturedOutput output) {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.");
		SpringApplication application = new SpringApplication(Orders.class);
		application.setDefaultProperties(Map.of("spring.main.banner-mode", "off"));
		assertThatException().isThrownBy(application::run)
			.withMessageContaining("does not support Spring Boot 3.")
			.withMessageContaining("Spring Boot 4.0 or 4.1");
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Spring Boot 4.0 or 4.1")
			.contains("Upgrade the application to Spring Boot 4.0 or 4.1")
			.doesNotContain("Leases are hosted");
	}

	@SpringBootApplication
	static class Orders {

	}

}
