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

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * Tests for the package rules of lease-core: the atom knows nothing of Spring, hosts know
 * nothing of each other or of Boot, and nothing points upward.
 *
 * @author Lease contributors
 */
class PackageRulesTests {

	private static final JavaClasses CORE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.lease");

	@Test
	@DisplayName("The atom imports only the JDK and JSpecify")
	void atomImportsOnlyTheJdkAndJSpecify() {
		ArchRule rule = classes().that()
			.resideInAPackage("dev.lease")
			.should()
			.onlyDependOnClassesThat()
			.resideInAnyPackage("dev.lease", "java..", "org.jspecify..");
		rule.check(CORE);
	}

	@Test
	@DisplayName("Hosts do not import each other")
	void hostsDoNotImportEachOther() {
		slices().matching("dev.lease.host.(*)..").should().notDependOnEachOther().check(CORE);
	}

	@Test
	@DisplayName("Hosts import nothing of the Spring layer or of Spring Boot")
	void hostsImportNoSpringLayer() {
		noClasses().that()
			.resideInAPackage("dev.lease.host..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.lease.aop..", "dev.lease.annotation..", "dev.lease.fence..",
					"dev.lease.observation..", "dev.lease.autoconfigure..", "org.springframework.boot..",
					"org.springframework.aop..")
			.check(CORE);
	}

	@Test
	@DisplayName("Fenced parties do not import hosts or the advice that binds them")
	void fencesImportNoHostOrAdvice() {
		noClasses().that()
			.resideInAPackage("dev.lease.fence..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.lease.host..", "dev.lease.aop..", "dev.lease.autoconfigure..")
			.allowEmptyShould(true)
			.check(CORE);
	}

	@Test
	@DisplayName("lease-core imports nothing of Spring Boot, and its packages have no cycles")
	void coreHasNoBootAndNoCycles() {
		noClasses().should().dependOnClassesThat().resideInAPackage("org.springframework.boot..").check(CORE);
		slices().matching("dev.lease.(**)").should().beFreeOfCycles().check(CORE);
	}

}
