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

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the rules across artifacts, here because this module sees every one of them:
 * lease-core at the bottom, each store's artifact (lease-redis, lease-jdbc, and the
 * in-memory host) beside the others and knowing none of them, lease-spring above the atom
 * and knowing no store, lease-shedlock (the ShedLock adapter) above the atom too, and
 * Boot on top. Nothing points upward.
 *
 * @author Lease contributors
 */
class ModuleRulesTests {

	private static final JavaClasses ALL = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		// Test servers for the project's own tests: main code of no module, never
		// published.
		.withImportOption((location) -> !location.contains("lease-test-support"))
		.importPackages("dev.lease");

	private static final List<String> STORES = List.of("inmemory", "redis", "jdbc");

	@Test
	@DisplayName("The rules see every artifact: a rule over classes it cannot see would pass for nothing")
	void seesEveryArtifact() {
		assertThat(List.of("dev.lease.LeaseHost", "dev.lease.host.inmemory.InMemoryLeaseHost",
				"dev.lease.host.redis.RedisLeaseHost", "dev.lease.fence.redis.FencedRedisWrites",
				"dev.lease.host.jdbc.JdbcLeaseHost", "dev.lease.fence.jdbc.FencedJdbcTemplate",
				"dev.lease.aop.LeasedAdvisor", "dev.lease.fence.http.FenceServletFilter",
				"dev.lease.shedlock.LeaseLockProvider", "dev.lease.autoconfigure.LeaseAutoConfiguration"))
			.allMatch(ALL::contain);
	}

	@Test
	@DisplayName("Nothing points upward: core, then the stores and the Spring layer, then Boot")
	void nothingPointsUpward() {
		Architectures.layeredArchitecture()
			.consideringOnlyDependenciesInLayers()
			.layer("Core")
			.definedBy("dev.lease", "dev.lease.host", "dev.lease.fence")
			.layer("Stores")
			.definedBy("dev.lease.host.inmemory..", "dev.lease.host.redis..", "dev.lease.host.jdbc..",
					"dev.lease.fence.redis..", "dev.lease.fence.jdbc..")
			.layer("Spring")
			.definedBy("dev.lease.annotation..", "dev.lease.aop..", "dev.lease.aot..", "dev.lease.observation..",
					"dev.lease.template..", "dev.lease.fence.http..", "dev.lease.fence.reactor..")
			.layer("Adapters")
			.definedBy("dev.lease.shedlock..")
			.layer("Boot")
			.definedBy("dev.lease.autoconfigure..", "dev.lease.actuate..", "dev.lease.health..")
			.whereLayer("Boot")
			.mayNotBeAccessedByAnyLayer()
			.whereLayer("Spring")
			.mayOnlyBeAccessedByLayers("Boot")
			.whereLayer("Stores")
			.mayOnlyBeAccessedByLayers("Boot")
			.whereLayer("Adapters")
			.mayOnlyBeAccessedByLayers("Boot")
			.check(ALL);
	}

	@Test
	@DisplayName("Every lease package belongs to one layer")
	void everyPackageHasALayer() {
		noClasses().should()
			.resideOutsideOfPackages("dev.lease", "dev.lease.host..", "dev.lease.fence..", "dev.lease.annotation..",
					"dev.lease.aop..", "dev.lease.aot..", "dev.lease.observation..", "dev.lease.template..",
					"dev.lease.shedlock..", "dev.lease.autoconfigure..", "dev.lease.actuate..", "dev.lease.health..",
					"dev.lease.tck..")
			.check(ALL);
	}

	@Test
	@DisplayName("No package is split across two artifacts")
	void noPackageIsSplit() {
		Map<String, Set<String>> artifacts = new TreeMap<>();
		for (JavaClass type : ALL) {
			String location = type.getSource().orElseThrow().getUri().toString();
			String root = location.substring(0,
					location.length() - (type.getName().replace('.', '/') + ".class").length());
			artifacts.computeIfAbsent(type.getPackageName(), (name) -> new TreeSet<>()).add(root);
		}
		assertThat(artifacts).allSatisfy((name, roots) -> assertThat(roots).as(name).hasSize(1));
	}

	@Test
	@DisplayName("Hosts never import each other")
	void hostsDoNotImportEachOther() {
		slices().matching("dev.lease.host.(*)..").should().notDependOnEachOther().check(ALL);
	}

	@Test
	@DisplayName("A store's host and fenced party know no other store")
	void storesDoNotImportEachOther() {
		for (String store : STORES) {
			String[] others = STORES.stream()
				.filter((other) -> !other.equals(store))
				.flatMap((other) -> List.of("dev.lease.host." + other + "..", "dev.lease.fence." + other + "..")
					.stream())
				.toArray(String[]::new);
			noClasses().that()
				.resideInAnyPackage("dev.lease.host." + store + "..", "dev.lease.fence." + store + "..")
				.should()
				.dependOnClassesThat()
				.resideInAnyPackage(others)
				.allowEmptyShould(true)
				.check(ALL);
		}
	}

	@Test
	@DisplayName("No artifact below Boot imports Spring Boot")
	void onlyTheBootLayerImportsBoot() {
		noClasses().that()
			.resideOutsideOfPackages("dev.lease.autoconfigure..", "dev.lease.actuate..", "dev.lease.health..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework.boot..")
			.check(ALL);
	}

}
