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

package dev.lease.autoconfigure.leased;

import java.io.IOException;
import java.util.Properties;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;

import dev.lease.annotation.Fenced;
import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeasedMethodFailureAnalyzer;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Start-up checks of every {@code @Leased} and {@code @Fenced} method, reported as a
 * failure analysis naming the bean, the method, the attribute and the fix.
 *
 * @author Lease contributors
 */
class LeasedMethodChecksTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(InMemoryLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class));

	@Test
	@DisplayName("A key written like a ShedLock name fails at start-up, suggesting the quoted literal")
	void unquotedKeyFailsAtStartUpSuggestingTheLiteral() {
		this.runner.withBean("reportJob", UnquotedKey.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains("reportJob")
				.contains(UnquotedKey.class.getName() + ".report()")
				.contains("'key'")
				.contains("'report' is neither a parameter of the method nor a property of the bean");
			assertThat(analysis[1]).contains("did you mean `'report'`?");
		});
	}

	@Test
	@DisplayName("A key written as the name of its public method fails at start-up: SpEL reads no property of that name")
	void unquotedKeyNamingItsPublicMethodFailsAtStartUp() {
		this.runner.withBean("reportJob", PublicUnquotedKey.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains(PublicUnquotedKey.class.getName() + ".report()")
				.contains("'report' is neither a parameter of the method nor a property of the bean");
			assertThat(analysis[1]).contains("did you mean `'report'`?");
		});
	}

	@Test
	@DisplayName("A key written as the name of its method returning a value fails at start-up: SpEL would run the method for its key")
	void unquotedKeyNamingItsMethodReturningAValueFailsAtStartUp() {
		this.runner.withBean("summary", UnquotedKeyReadingItsMethod.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains(UnquotedKeyReadingItsMethod.class.getName() + ".summary()")
				.contains("'summary' is read by calling summary(), the leased method itself");
			assertThat(analysis[1]).contains("did you mean `'summary'`?");
		});
	}

	@Test
	void keyReadingAnotherNoArgumentMethodOfTheBeanStarts() {
		this.runner.withBean("regional", KeyReadingAnotherMethod.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	@DisplayName("A key naming no parameter of the method fails at start-up, listing the parameters")
	void keyNamingNoParameterFailsAtStartUp() {
		this.runner.withBean("orders", WrongVariable.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains("orders")
				.contains(".ship(java.lang.String)")
				.contains("'key'")
				.contains("#orderId is not a parameter");
			assertThat(analysis[1]).contains("#id").contains("#p0");
		});
	}

	@Test
	@DisplayName("A negative duration is reported as not positive, not as malformed")
	void negativeDurationIsNotPositive() {
		this.runner.withBean("negative", NegativeDuration.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains("'duration'").contains("'-5s'").contains("not positive");
			assertThat(analysis[0]).doesNotContain("not a duration");
			assertThat(analysis[1]).contains("positive");
		});
	}

	@Test
	@DisplayName("A malformed duration fails at start-up naming the attribute")
	void malformedDurationFailsAtStartUp() {
		this.runner.withBean("malformed", MalformedDuration.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains("'duration'").contains("'5 sec'").contains("not a duration");
			assertThat(analysis[1]).contains("30s").contains("PT30S");
		});
	}

	@Test
	@DisplayName("A duration placeholder with no property fails at start-up naming it")
	void unresolvablePlaceholderFailsAtStartUp() {
		this.runner.withBean("placeholder", MissingProperty.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains("'duration'").contains("jobs.missing");
			assertThat(analysis[1]).contains("define the property");
		});
	}

	@Test
	@DisplayName("A negative holdAtLeast is reported as not positive")
	void negativeHoldAtLeastIsNotPositive() {
		this.runner.withBean("negativeHold", NegativeHold.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains("'holdAtLeast'").contains("'-1s'").contains("not positive");
		});
	}

	@Test
	@DisplayName("A holdAtLeast longer than the duration fails at start-up as inconsistent")
	void holdAtLeastLongerThanDurationFailsAtStartUp() {
		this.runner.withBean("longHold", LongHold.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains("'holdAtLeast'").contains("longer than the duration");
			assertThat(analysis[1]).contains("PT10M");
		});
	}

	@Test
	@DisplayName("SKIP on a method returning a primitive fails at start-up")
	void skipOnPrimitiveFailsAtStartUp() {
		this.runner.withBean("counter", SkipOnInt.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains("'onUnavailable'").contains("SKIP").contains("int");
			assertThat(analysis[1]).contains("Integer").contains("THROW");
		});
	}

	@Test
	@DisplayName("A @Fenced with no party fails at start-up")
	void fencedWithoutPartyFailsAtStartUp() {
		this.runner.withBean("writer", BlankParty.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains("@Fenced").contains("writer").contains(".write()");
			assertThat(analysis[1]).contains("lease.fences");
		});
	}

	@Test
	@DisplayName("Every problem of a bean is reported at once")
	void everyProblemOfABeanIsReported() {
		this.runner.withBean("many", ManyProblems.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains(".first()").contains(".second()");
		});
	}

	@Test
	@DisplayName("Well-formed keys over parameters, indexes, the bean and other beans start")
	void wellFormedMethodsStart() {
		this.runner.withUserConfiguration(WellFormedConfiguration.class)
			.withPropertyValues("jobs.term=30s")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void leasedMethodOfAnEnhancedConfigurationClassStarts() {
		this.runner.withUserConfiguration(EnhancedConfiguration.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void failureAnalyzerIsRegistered() throws IOException {
		Properties factories = PropertiesLoaderUtils
			.loadProperties(new ClassPathResource("/META-INF/spring.factories", LeaseAutoConfiguration.class));
		assertThat(factories.getProperty(FailureAnalyzer.class.getName()))
			.contains(LeasedMethodFailureAnalyzer.class.getName());
	}

	static class UnquotedKey {

		@Leased(key = "report", duration = "PT10M", holdAtLeast = "PT30S")
		void report() {
		}

	}

	public static class PublicUnquotedKey {

		@Leased(key = "report", duration = "PT10M")
		public void report() {
		}

	}

	public static class UnquotedKeyReadingItsMethod {

		@Leased(key = "summary", duration = "PT10M")
		public String summary() {
			return "sent";
		}

	}

	public static class KeyReadingAnotherMethod {

		@Leased(key = "'report:' + region", duration = "PT10M")
		public void report() {
		}

		public String region() {
			return "eu";
		}

	}

	static class WrongVariable {

		@Leased(key = "'order:' + #orderId", duration = "30s")
		void ship(String id) {
		}

	}

	static class NegativeDuration {

		@Leased(key = "'k'", duration = "-5s")
		void run() {
		}

	}

	static class MalformedDuration {

		@Leased(key = "'k'", duration = "5 sec")
		void run() {
		}

	}

	@Configuration
	static class EnhancedConfiguration {

		@Leased(key = "'k'", duration = "1s")
		void run() {
		}

	}

	static class MissingProperty {

		@Leased(key = "'k'", duration = "${jobs.missing}")
		void run() {
		}

	}

	static class NegativeHold {

		@Leased(key = "'k'", duration = "30s", holdAtLeast = "-1s")
		void run() {
		}

	}

	static class LongHold {

		@Leased(key = "'k'", duration = "PT10M", holdAtLeast = "PT20M")
		void run() {
		}

	}

	static class SkipOnInt {

		@Leased(key = "'k'", duration = "30s", mode = LeaseMode.TRY_TAKE, onUnavailable = OnUnavailable.SKIP)
		int count() {
			return 1;
		}

	}

	static class BlankParty {

		@Fenced(" ")
		void write() {
		}

	}

	static class ManyProblems {

		@Leased(key = "'k'", duration = "-1s")
		void first() {
		}

		@Leased(key = "#nothing", duration = "1s")
		void second() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class WellFormedConfiguration {

		@Bean
		WellFormed wellFormed() {
			return new WellFormed();
		}

		@Bean
		Names names() {
			return new Names();
		}

	}

	public static class Names {

		public String prefix() {
			return "n:";
		}

	}

	public static class WellFormed {

		public String getRegion() {
			return "eu";
		}

		@Leased(key = "'order:' + #orderId + ':' + #p1 + #a1.length()", duration = "${jobs.term}")
		void byName(String orderId, String line) {
		}

		@Leased(key = "region + ':' + #root.region + T(java.lang.String).valueOf(#this.region)", duration = "1s",
				holdAtLeast = "1s")
		void byBean() {
		}

		@Leased(key = "@names.prefix() + #ids.?[length() > 1].size() + #ids[0]", duration = "1s",
				holder = "'h:' + #ids.size()")
		void byOtherBean(java.util.List<String> ids) {
		}

		@Leased(key = "'k'", duration = "1s", mode = LeaseMode.TRY_TAKE, onUnavailable = OnUnavailable.SKIP)
		Integer boxed() {
			return 1;
		}

	}

}
