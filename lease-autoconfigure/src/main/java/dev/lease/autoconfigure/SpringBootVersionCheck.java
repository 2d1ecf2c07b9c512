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

import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Refuses to start on a Spring Boot this starter does not support. Registered as an
 * initializer, so that it runs before any auto-configuration is read: on Spring Boot 3
 * the store auto-configurations name classes that do not exist there, and without this
 * check detection would quietly end at the in-memory host.
 *
 * @author Lease contributors
 */
class SpringBootVersionCheck implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	/** The Spring Boot versions this starter is built and tested against. */
	static final String SUPPORTED = "Spring Boot 4.0 or 4.1";

	private static final int FIRST_SUPPORTED_MAJOR = 4;

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		check(SpringBootVersion.getVersion());
	}

	static void check(@Nullable String version) {
		// No version where the jar lost its manifest (repackaged): nothing to judge on.
		if (version == null) {
			return;
		}
		int major = major(version);
		if (major >= 0 && major < FIRST_SUPPORTED_MAJOR) {
			throw new UnsupportedSpringBootException(version, SUPPORTED);
		}
	}

	private static int major(String version) {
		try {
			return Integer.parseInt(version.split("\\.", 2)[0]);
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

}
