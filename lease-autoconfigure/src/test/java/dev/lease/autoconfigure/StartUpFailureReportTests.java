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

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Every start-up error a user can cause with a lease property ends in Spring Boot's
 * "APPLICATION FAILED TO START" report, which names the property and says what to do,
 * rather than in a stack trace.
 *
 * @author Lease contributors
 */
@ExtendWith(OutputCaptureExtension.class)
class StartUpFailureReportTests {

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = ';', value = { "lease.host=mongo;lease.host", "lease.on-overrun=explode;lease.on-overrun",
			"lease.host=redis,spring.data.redis.port=1,lease.redis.key-prefix=has space;lease.redis.key-prefix",
			"lease.host=redis,spring.data.redis.port=1,lease.redis.durability-check-interval=-1s;lease.redis.durability-check-interval",
			"lease.host=redis,spring.data.redis.port=1,lease.redis.replicas-to-ack=-1;lease.redis.replicas-to-ack",
			"lease.host=redis,spring.data.redis.port=1,lease.redis.replicas-to-ack=1,lease.redis.replica-timeout=-1s;lease.redis.replica-timeout",
			"lease.host=jdbc,lease.jdbc.table-prefix=X-DROP;lease.jdbc.table-prefix",
			"lease.host=memory,lease.fences.orders-db.allowance=-250ms;lease.fences.orders-db.allowance" })
	void aMisconfiguredPropertyIsReportedByName(String properties, String property, CapturedOutput output) {
		SpringApplication application = new SpringApplication(Application.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		List<String> arguments = new ArrayList<>();
		arguments.add("--spring.main.banner-mode=off");
		arguments.add("--spring.datasource.generate-unique-name=true");
		for (String each : properties.split(",")) {
			arguments.add("--" + each);
		}
		assertThatException().isThrownBy(() -> application.run(arguments.toArray(String[]::new)).close());
		assertThat(output).contains("APPLICATION FAILED TO START");
		String report = output.toString().substring(output.toString().indexOf("APPLICATION FAILED TO START"));
		assertThat(report).as("the report of " + properties).contains("Action:").contains(property);
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
