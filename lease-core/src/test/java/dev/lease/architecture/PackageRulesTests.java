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
 * Tests for the package rules of lease-core: it imports only the JDK and JSpecify, the
 * host kit knows no host, hosts know nothing of each other, and nothing points upward.
 * The rules across artifacts are kept by lease-autoconfigure's {@code ModuleRulesTests},
 * which sees every artifact.
 *
 * @author Lease contributors
 */
class PackageRulesTests {

	private static final JavaClasses CORE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.lease");

	@Test
	@DisplayName("lease-core imports only the JDK, JSpecify and itself")
	void coreImportsOnlyTheJdkAndJSpecify() {
		classes().should()
			.onlyDependOnClassesThat()
			.resideInAnyPackage("dev.lease..", "java..", "org.jspecify..")
			.check(CORE);
	}

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
	@DisplayName("The host kit imports the atom, never a host")
	void hostKitImportsNoHost() {
		classes().that()
			.resideInAPackage("dev.lease.host")
			.should()
			.onlyDependOnClassesThat()
			.resideInAnyPackage("dev.lease", "dev.lease.host", "java..", "org.jspecify..")
			.allowEmptyShould(true)
			.check(CORE);
	}

	@Test
	@DisplayName("Hosts do not import each other")
	void hostsDoNotImportEachOther() {
		slices().matching("dev.lease.host.(*)..").should().notDependOnEachOther().check(CORE);
	}

	@Test
	@DisplayName("Hosts and fences do not import each other")
	void hostsAndFencesDoNotImportEachOther() {
		noClasses().that()
			.resideInAPackage("dev.lease.host..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.lease.fence..")
			.check(CORE);
		noClasses().that()
			.resideInAPackage("dev.lease.fence..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.lease.host..")
			.check(CORE);
	}

	@Test
	@DisplayName("lease-core's packages have no cycles")
	void coreHasNoCycles() {
		slices().matching("dev.lease.(**)").should().beFreeOfCycles().check(CORE);
	}

}
