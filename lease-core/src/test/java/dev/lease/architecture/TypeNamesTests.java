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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No type of the repository, main or test, top-level or nested, shares its simple name
 * with a public type of the lease API, so that a reader who meets {@code Held} or
 * {@code Fence} knows which type is meant. The API is every public type of a published
 * artifact's main sources, and the public members of those, except the host kit
 * ({@code dev.lease.host}) and the conformance kit ({@code dev.lease.tck}): their names
 * are the vocabulary a host's own answers reuse for the same concepts.
 *
 * @author Lease contributors
 */
class TypeNamesTests {

	private static final Path ROOT = RepositoryFiles.ROOT;

	// Modules that are never published: their types are no API, but may not collide.
	private static final Set<String> UNPUBLISHED = Set.of("benchmarks", "samples", "compat");

	private static final Set<String> KITS = Set.of("dev.lease.host", "dev.lease.tck", "dev.lease.tck.history");

	// Public names that two public types share because they are one concept named by the
	// Java convention for their outer class's role: a host's builder, a binding's scope.
	private static final Set<String> SHARED = Set.of("Builder", "Scope");

	@Test
	@DisplayName("No type shares its simple name with a public type of the API")
	void noTypeSharesItsNameWithAPublicApiType() {
		List<TypeDeclaration> types = declarations();
		Map<String, List<TypeDeclaration>> api = types.stream()
			.filter(TypeDeclaration::api)
			.collect(Collectors.groupingBy(TypeDeclaration::name));
		List<String> collisions = new ArrayList<>();
		for (TypeDeclaration type : types) {
			for (TypeDeclaration other : api.getOrDefault(type.name(), List.of())) {
				if (other != type && !(type.api() && SHARED.contains(type.name()))) {
					collisions.add(type + " shares its name with the public " + other.qualifiedName());
				}
			}
		}
		assertThat(collisions).as("types named like a public API type").isEmpty();
	}

	@Test
	@DisplayName("The name check sees the public types of the API and the nested types beside them")
	void nameCheckSeesApiTypesAndNestedTypes() {
		List<TypeDeclaration> types = declarations();
		assertThat(types.stream().filter(TypeDeclaration::api).map(TypeDeclaration::qualifiedName))
			.contains("dev.lease.Held", "dev.lease.Fence", "dev.lease.template.LeaseStack.Scope",
					"dev.lease.host.redis.RedisLeaseHost.Builder")
			.doesNotContain("dev.lease.host.KeyModel", "dev.lease.tck.LeaseHostConformanceKit");
		assertThat(types.stream().filter((type) -> !type.api()).map(TypeDeclaration::qualifiedName))
			.contains("dev.lease.host.redis.RedisScriptAnswer", "dev.lease.host.redis.RedisScriptAnswer.Granted");
	}

	private static List<TypeDeclaration> declarations() {
		List<TypeDeclaration> types = new ArrayList<>();
		for (Path file : sources()) {
			types.addAll(TypeDeclaration.read(ROOT.relativize(file).toString().replace('\\', '/'),
					RepositoryFiles.read(file), KITS, UNPUBLISHED));
		}
		return types;
	}

	private static List<Path> sources() {
		return RepositoryFiles.matching((file) -> file.toString().endsWith(".java"));
	}

}
