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

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application without Spring Data Redis, Spring JDBC, Micrometer or the Actuator
 * starts with every lease auto-configuration listed, in a user's own
 * {@link ApplicationContextRunner} test as well as in the application. Two ways to take a
 * technology away: Boot's {@link FilteredClassLoader}, and a class loader from which its
 * jars are really absent (where a class literal in a condition or in
 * {@code @AutoConfiguration(after = …)} would be dropped and the configuration class
 * introspected anyway, failing with {@code NoClassDefFoundError}).
 *
 * @author Lease contributors
 */
class MissingTechnologyTests {

	@ParameterizedTest(name = "without {0}, hiding {1}")
	@CsvSource(delimiter = ';', value = { "Spring Data Redis;org.springframework.data.redis,io.lettuce,redis.clients",
			"Spring JDBC;org.springframework.jdbc,org.springframework.boot.jdbc,org.h2,org.postgresql",
			"Micrometer;io.micrometer", "the Actuator;org.springframework.boot.actuate,org.springframework.boot.health",
			"ShedLock;net.javacrumbs.shedlock", "lease-shedlock;dev.lease.shedlock" })
	void startsWhenTheTechnologyIsFiltered(String technology, String packages) {
		new ApplicationContextRunner().withClassLoader(new FilteredClassLoader(packages.split(",")))
			.withConfiguration(AutoConfigurations.of(leaseAutoConfigurations(getClass().getClassLoader())))
			.run((context) -> assertThat(context).as("started without " + technology).hasNotFailed());
	}

	@ParameterizedTest(name = "without {0}, removing jars named {1}")
	@CsvSource(delimiter = ';',
			value = { "Spring Data Redis;spring-data-redis-,spring-boot-data-redis-,lettuce-core-,jedis-",
					"Spring JDBC;spring-jdbc-,spring-boot-jdbc-,h2-,postgresql-,HikariCP-",
					"Micrometer;micrometer-,spring-boot-micrometer-",
					"the Actuator;spring-boot-actuator-,spring-boot-health-", "ShedLock;shedlock-" })
	void startsWhenTheTechnologyIsAbsent(String technology, String jars) throws Exception {
		try (URLClassLoader loader = classPathWithout(jars.split(","))) {
			Class<?> probe = loader.loadClass(Probe.class.getName());
			assertThat(probe.getClassLoader()).isSameAs(loader);
			Thread thread = Thread.currentThread();
			ClassLoader previous = thread.getContextClassLoader();
			thread.setContextClassLoader(loader);
			try {
				@SuppressWarnings("unchecked")
				Supplier<String> run = (Supplier<String>) probe.getDeclaredConstructor().newInstance();
				assertThat(run.get()).as("started without " + technology).isEqualTo("started");
			}
			finally {
				thread.setContextClassLoader(previous);
			}
		}
	}

	static Class<?>[] leaseAutoConfigurations(ClassLoader classLoader) {
		List<Class<?>> classes = new ArrayList<>();
		for (String name : ImportCandidates.load(AutoConfiguration.class, classLoader)) {
			if (name.startsWith("dev.lease.")) {
				try {
					classes.add(Class.forName(name, false, classLoader));
				}
				catch (ClassNotFoundException ex) {
					throw new IllegalStateException(ex);
				}
			}
		}
		return classes.toArray(Class<?>[]::new);
	}

	// The test class path as surefire gives it, less the jars of one technology; the
	// parent is the platform loader, so every application class is loaded afresh here.
	private static URLClassLoader classPathWithout(String[] jarPrefixes) throws Exception {
		String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<URL> urls = new ArrayList<>();
		for (String entry : classPath.split(File.pathSeparator)) {
			String name = new File(entry).getName();
			boolean removed = false;
			for (String prefix : jarPrefixes) {
				removed |= name.startsWith(prefix) && name.endsWith(".jar");
			}
			if (!removed && !entry.isEmpty()) {
				urls.add(new File(entry).toURI().toURL());
			}
		}
		return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
	}

	/**
	 * Runs inside the reduced class loader: what a user's own context runner test does.
	 */
	public static final class Probe implements Supplier<String> {

		@Override
		public String get() {
			AtomicReference<String> outcome = new AtomicReference<>();
			ClassLoader classLoader = Probe.class.getClassLoader();
			new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(leaseAutoConfigurations(classLoader)))
				.run((context) -> outcome
					.set((context.getStartupFailure() != null)
							? context.getStartupFailure() + ", root cause "
									+ NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure())
							: "started"));
			return outcome.get();
		}

	}

}
