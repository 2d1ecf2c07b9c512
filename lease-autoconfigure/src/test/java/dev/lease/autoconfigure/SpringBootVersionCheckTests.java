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

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link SpringBootVersionCheck} and its failure analyzer. The check on a real
 * Spring Boot 3 application lives in {@code compat/spring-boot-3}.
 *
 * @author Lease contributors
 */
class SpringBootVersionCheckTests {

	@Test
	void springBoot3IsRefusedNamingTheSupportedVersions() {
		assertThatExceptionOfType(UnsupportedSpringBootException.class)
			.isThrownBy(() -> SpringBootVersionCheck.check("3.5.6"))
			.withMessageContaining("3.5.6")
			.withMessageContaining("Spring Boot 4.0 or 4.1");
	}

	@Test
	void springBoot4IsAccepted() {
		assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check("4.0.7"));
		assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check("4.1.2"));
		assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check(SpringBootVersion.getVersion()));
	}

	@Test
	void anUnknownVersionIsNotJudged() {
		assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check(null));
		assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check("snapshot"));
	}

	@Test
	void theAnalysisNamesTheVersionFoundAndTheFix() {
		UnsupportedSpringBootException failure = new UnsupportedSpringBootException("3.5.6",
				SpringBootVersionCheck.SUPPORTED);
		FailureAnalysis analysis = new LeaseConfigurationFailureAnalyzer()
			.analyze(new IllegalStateException("wrapped", failure));
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).contains("Spring Boot 3.5.6").contains("Spring Boot 4.0 or 4.1");
		assertThat(analysis.getAction()).contains("Upgrade the application to Spring Boot 4.0 or 4.1")
			.contains("compatibility table");
		assertThat(analysis.getDescription() + analysis.getAction()).doesNotContain("4.0 and 4.1");
	}

	@Test
	@SuppressWarnings("rawtypes")
	void theCheckRunsInEverySpringApplication() {
		assertThat(SpringFactoriesLoader.forDefaultResourceLocation().load(ApplicationContextInitializer.class))
			.anyMatch(SpringBootVersionCheck.class::isInstance);
	}

}
