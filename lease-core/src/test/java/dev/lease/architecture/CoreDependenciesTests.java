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

package dev.lease.architecture;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that lease-core's class path outside its tests is JSpecify and nothing else, so
 * the atom and the in-memory host run on the JDK alone. Maven writes every dependency it
 * resolved for this module, in every scope, to {@value #LIST} before the tests run
 * ({@code maven-dependency-plugin:list} in this module's pom): a dependency added in any
 * scope but {@code test}, optional or not, direct or transitive, fails here by name.
 *
 * @author Lease contributors
 */
class CoreDependenciesTests {

	static final String LIST = "dev/lease/architecture/dependencies.txt";

	// groupId:artifactId:type[:classifier]:version:scope, then " (optional)" and the
	// module name when there are any
	private static final Pattern ANSI_ESCAPE = Pattern.compile("\u001B\\[[0-9;]*m");

	private static final Pattern DEPENDENCY = Pattern
		.compile("^\\s+([^:\\s]+):([^:\\s]+):[^\\s]*:([a-z]+)(?:\\s+\\(optional\\))?(?:\\s+--.*)?$");

	@Test
	@DisplayName("lease-core depends on JSpecify only: its run-time class path is the JDK and JSpecify")
	void dependsOnJSpecifyOnly() throws IOException {
		List<Dependency> resolved = resolved();
		assertThat(resolved).as("the dependencies Maven resolved for lease-core (%s)", LIST)
			.extracting(Dependency::coordinates)
			.contains("org.jspecify:jspecify");
		assertThat(resolved.stream().filter((dependency) -> !dependency.scope().equals("test")))
			.as("lease-core's dependencies outside its tests: the atom and the in-memory host must run on the JDK "
					+ "and JSpecify alone; put Spring, a store or a driver in lease-spring, lease-redis or lease-jdbc")
			.extracting(Dependency::coordinates)
			.containsExactly("org.jspecify:jspecify");
	}

	private List<Dependency> resolved() throws IOException {
		try (InputStream stream = getClass().getClassLoader().getResourceAsStream(LIST)) {
			assertThat(stream)
				.as(LIST + " is written by Maven before the tests (maven-dependency-plugin:list in lease-core's pom): "
						+ "run this test through Maven")
				.isNotNull();
			// Maven may colour what it writes (ANSI escapes) when its own output is
			// coloured.
			List<String> lines = Arrays.stream(new String(stream.readAllBytes(), StandardCharsets.UTF_8).split("\n"))
				.map((line) -> ANSI_ESCAPE.matcher(line).replaceAll(""))
				.filter((line) -> line.startsWith(" ") && !line.isBlank())
				.toList();
			// A line read wrongly must not let a dependency through unseen.
			assertThat(lines).as("the dependency lines of " + LIST)
				.allMatch((line) -> DEPENDENCY.matcher(line).matches());
			return lines.stream()
				.map(DEPENDENCY::matcher)
				.filter(Matcher::matches)
				.map((match) -> new Dependency(match.group(1) + ":" + match.group(2), match.group(3)))
				.toList();
		}
	}

	private record Dependency(String coordinates, String scope) {

	}

}
