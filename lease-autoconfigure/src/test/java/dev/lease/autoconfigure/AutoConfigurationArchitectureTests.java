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

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the auto-configuration rules of {@link LeaseAutoConfiguration} and its
 * siblings: public final {@code @AutoConfiguration} classes with package-private
 * {@code @Bean} methods, and an imports file that is sorted and complete.
 *
 * @author Lease contributors
 */
class AutoConfigurationArchitectureTests {

	private static final String IMPORTS = "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports";

	// Imported once for the class: the import is most of its time.
	private static final JavaClasses CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.lease");

	@Test
	void autoConfigurationsArePublicAndFinal() {
		ArchRule rule = ArchRuleDefinition.classes()
			.that()
			.areAnnotatedWith(AutoConfiguration.class)
			.should()
			.bePublic()
			.andShould()
			.haveModifier(JavaModifier.FINAL);
		rule.check(CLASSES);
	}

	@Test
	void beanMethodsOfAutoConfigurationsAreNotPublic() {
		ArchRule rule = ArchRuleDefinition.methods()
			.that()
			.areAnnotatedWith(Bean.class)
			.and()
			.areDeclaredInClassesThat()
			.resideInAPackage("dev.lease.autoconfigure..")
			.should()
			.notBePublic()
			.allowEmptyShould(true);
		rule.check(CLASSES);
	}

	@Test
	void conditionalOnClassIsOnlyUsedAtClassLevel() {
		ArchRule rule = ArchRuleDefinition.noMethods()
			.should()
			.beAnnotatedWith(ConditionalOnClass.class)
			.allowEmptyShould(true);
		rule.check(CLASSES);
	}

	@Test
	void autoConfigurationsAreNotComponentScanned() {
		ArchRule rule = ArchRuleDefinition.noClasses()
			.that()
			.areAnnotatedWith(AutoConfiguration.class)
			.should()
			.beAnnotatedWith("org.springframework.stereotype.Component")
			.orShould()
			.beAnnotatedWith("org.springframework.context.annotation.ComponentScan");
		rule.check(CLASSES);
	}

	@Test
	void rootPackageImportsOnlyTheJdkAndJSpecify() {
		ArchRule rule = ArchRuleDefinition.classes()
			.that()
			.resideInAPackage("dev.lease")
			.should()
			.onlyDependOnClassesThat()
			.resideInAnyPackage("dev.lease", "java..", "org.jspecify..");
		rule.check(CLASSES);
	}

	@Test
	void importsFileIsSortedAndListsEveryAutoConfiguration() throws IOException {
		List<String> listed = imports();
		assertThat(listed).isSorted().doesNotHaveDuplicates();
		List<String> declared = CLASSES.stream()
			.filter((type) -> type.isAnnotatedWith(AutoConfiguration.class))
			.map((type) -> type.getName())
			.sorted()
			.toList();
		assertThat(listed).containsExactlyElementsOf(declared);
		for (String name : listed) {
			assertThat(ClassUtils.isPresent(name, getClass().getClassLoader())).as(name).isTrue();
		}
	}

	private List<String> imports() throws IOException {
		try (InputStream stream = getClass().getClassLoader().getResourceAsStream(IMPORTS)) {
			assertThat(stream).as(IMPORTS).isNotNull();
			return Arrays.stream(new String(stream.readAllBytes(), StandardCharsets.UTF_8).split("\n"))
				.map(String::trim)
				.filter((line) -> !line.isEmpty() && !line.startsWith("#"))
				.toList();
		}
	}

}
