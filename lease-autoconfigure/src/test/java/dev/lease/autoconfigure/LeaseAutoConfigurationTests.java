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

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lease.Lease;
import dev.lease.LeaseExpiredException;
import dev.lease.LeaseHost;
import dev.lease.aop.LeasedAdvisor;
import dev.lease.aop.LeasedMethodInterceptor;
import dev.lease.autoconfigure.fence.FenceAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.template.LeaseRequest;
import dev.lease.template.LeaseTemplate;
import dev.lease.template.OnOverrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeaseAutoConfiguration}.
 *
 * @author Lease contributors
 */
@ExtendWith(OutputCaptureExtension.class)
class LeaseAutoConfigurationTests {

	private static final String MEMORY_WARNING = "An in-memory lease is not shared across instances";

	private static final String DETECTED_MEMORY = "Leases are hosted in memory because no Redis or JDBC host was detected";

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(LeaseAutoConfiguration.class, InMemoryLeaseHostAutoConfiguration.class));

	@Test
	void runWithNothingDetectsMemoryAndWarnsThatItIsNotShared(CapturedOutput output) {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(InMemoryLeaseHost.class)
				.hasSingleBean(LeaseHostSelection.class)
				.hasSingleBean(LeasedAdvisor.class);
			assertThat(context.getBean(LeaseHostSelection.class).host()).isInstanceOf(InMemoryLeaseHost.class);
			assertThat(output).contains("WARN").contains(MEMORY_WARNING).contains("Set lease.host to redis or jdbc");
		});
	}

	@Test
	void runWithHostMemoryChoosesMemoryWithoutWarningButSaysItIsNotShared(CapturedOutput output) {
		this.runner.withPropertyValues("lease.host=memory").run((context) -> {
			assertThat(context).hasSingleBean(InMemoryLeaseHost.class);
			assertThat(output).doesNotContain(DETECTED_MEMORY)
				.contains("INFO")
				.contains("Leases are hosted by the memory lease host")
				.contains("chosen by lease.host. " + MEMORY_WARNING);
		});
	}

	@Test
	void advisorsDoNotCreateLeasePropertiesBeforeThePostProcessors(CapturedOutput output) {
		this.runner.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, FenceAutoConfiguration.class))
			.withUserConfiguration(JobsConfiguration.class, UserPostProcessorConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(LeaseProperties.class);
				assertThat(output).doesNotContain("is not eligible for getting processed by all BeanPostProcessors");
			});
	}

	@Test
	void runWithUserInMemoryLeaseHostSaysItIsTheApplicationsAndNotShared(CapturedOutput output) {
		this.runner.withUserConfiguration(UserInMemoryHostConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(LeaseHost.class).hasBean("ordersLeaseHost");
			assertThat(output).doesNotContain(DETECTED_MEMORY)
				.contains("Leases are hosted by the memory lease host")
				.contains("a LeaseHost bean of the application. " + MEMORY_WARNING);
		});
	}

	@Test
	void runWithUserLeaseHostUsesItAndCreatesNoOther(CapturedOutput output) {
		this.runner.withUserConfiguration(UserHostConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(LeaseHost.class).doesNotHaveBean(InMemoryLeaseHost.class);
			assertThat(context.getBean(LeaseHostSelection.class).host()).isInstanceOf(CustomLeaseHost.class);
			assertThat(output).contains("Leases are hosted by the customleasehost lease host")
				.contains("a LeaseHost bean of the application")
				.doesNotContain(MEMORY_WARNING);
		});
	}

	@Test
	void runWithUserLeaseHostWinsOverLeaseHostProperty() {
		this.runner.withUserConfiguration(UserHostConfiguration.class)
			.withPropertyValues("lease.host=memory")
			.run((context) -> assertThat(context).hasSingleBean(LeaseHost.class)
				.getBean(LeaseHost.class)
				.isInstanceOf(CustomLeaseHost.class));
	}

	@Test
	void runWithHostRedisButNoRedisFailsNamingWhatIsMissing() {
		this.runner.withPropertyValues("lease.host=redis").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(NoLeaseHostException.class)
				.hasMessageContaining("lease.host is 'redis'")
				.hasMessageContaining("RedisConnectionFactory");
		});
	}

	@Test
	void runWithHostJdbcButNoDataSourceFailsNamingWhatIsMissing() {
		this.runner.withPropertyValues("lease.host=jdbc").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("lease.host is 'jdbc'")
				.hasMessageContaining("DataSource");
		});
	}

	@Test
	void runWithUnknownHostFailsNamingThePropertyAndValue() {
		this.runner.withPropertyValues("lease.host=mongo").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("mongo");
			assertThat(context.getStartupFailure()).hasStackTraceContaining("lease.host");
		});
	}

	@Test
	void runWithTwoHostsAndNoPrimaryFailsAtStartUp() {
		this.runner.withUserConfiguration(TwoHostsConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("More than one LeaseHost");
		});
	}

	@Test
	void runWithNoPropertiesBindsDefaults() {
		this.runner.run((context) -> {
			LeaseProperties properties = context.getBean(LeaseProperties.class);
			assertThat(properties.host()).isNull();
			assertThat(properties.onOverrun()).isEqualTo(OnOverrun.WARN);
			assertThat(properties.holderPrefix()).isNull();
		});
	}

	@Test
	void leasedMethodOfABeanIsProxiedAndRunsUnderALease() {
		this.runner.withUserConfiguration(JobsConfiguration.class)
			.withPropertyValues("spring.application.name=billing")
			.run((context) -> {
				LeasedJobs jobs = context.getBean(LeasedJobs.class);
				assertThat(AopUtils.isAopProxy(jobs)).isTrue();
				Lease lease = jobs.standing(fresh());
				assertThat(lease.holder().asString()).startsWith("billing@").contains(":");
			});
	}

	@Test
	void holderPrefixPropertyNamesTheHolders() {
		this.runner.withUserConfiguration(JobsConfiguration.class)
			.withPropertyValues("lease.holder-prefix=worker-7")
			.run((context) -> assertThat(context.getBean(LeasedJobs.class).standing(fresh()).holder().asString())
				.startsWith("worker-7/"));
	}

	@Test
	void onOverrunWarnLetsTheResultStand(CapturedOutput output) {
		this.runner.withUserConfiguration(JobsConfiguration.class).run((context) -> {
			assertThat(context.getBean(LeasedJobs.class).overrun(fresh())).isEqualTo("done");
			assertThat(output).contains("outran its lease");
		});
	}

	@Test
	void onOverrunFailThrowsLeaseExpiredException() {
		this.runner.withUserConfiguration(JobsConfiguration.class)
			.withPropertyValues("lease.on-overrun=fail")
			.run((context) -> assertThatExceptionOfType(LeaseExpiredException.class)
				.isThrownBy(() -> context.getBean(LeasedJobs.class).overrun(fresh())));
	}

	@Test
	void runProvidesALeaseTemplateWithTheHolderPrefixAndOnOverrunOfTheAdvice() {
		this.runner.withUserConfiguration(JobsConfiguration.class)
			.withPropertyValues("lease.holder-prefix=worker-7", "lease.on-overrun=fail")
			.run((context) -> {
				LeaseTemplate template = context.getBean(LeaseTemplate.class);
				assertThat(template.getHost()).isSameAs(context.getBean(LeaseHostSelection.class).host());
				Lease lease = template.call(LeaseRequest.of(fresh(), Duration.ofSeconds(30)), (taken) -> taken);
				assertThat(lease.holder().asString()).startsWith("worker-7/");
				assertThatExceptionOfType(LeaseExpiredException.class).isThrownBy(() -> template
					.run(LeaseRequest.of(fresh(), Duration.ofMillis(200)), (taken) -> awaitEnd(template, taken)));
				assertThatExceptionOfType(LeaseExpiredException.class)
					.isThrownBy(() -> context.getBean(LeasedJobs.class).overrun(fresh()));
			});
	}

	@Test
	void userLeaseTemplateBacksOffOursAndLeasedCallsRunThroughIt() {
		this.runner.withUserConfiguration(JobsConfiguration.class, UserTemplateConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(LeaseTemplate.class).hasBean("myTemplate");
			assertThat(context.getBean(LeasedJobs.class).standing(fresh()).holder().asString()).startsWith("mine/");
		});
	}

	@Test
	void userAdvisorBacksOffOurs() {
		this.runner.withUserConfiguration(UserAdvisorConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(LeasedAdvisor.class).hasBean("myAdvisor"));
	}

	private static String fresh() {
		return UUID.randomUUID().toString();
	}

	private static void awaitEnd(LeaseTemplate template, Lease lease) {
		await().atMost(Duration.ofSeconds(5))
			.until(() -> template.getHost().remaining(lease.key(), lease.holder()).isEmpty());
	}

	@Configuration(proxyBeanMethods = false)
	static class UserPostProcessorConfiguration {

		// an ordinary post-processor: the auto-proxy creator, registered before it,
		// looks for advisors while it is created
		@Bean
		static BeanPostProcessor userPostProcessor() {
			return new BeanPostProcessor() {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserInMemoryHostConfiguration {

		@Bean
		InMemoryLeaseHost ordersLeaseHost() {
			return new InMemoryLeaseHost();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserHostConfiguration {

		@Bean
		CustomLeaseHost customLeaseHost() {
			return new CustomLeaseHost();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoHostsConfiguration {

		@Bean
		CustomLeaseHost firstLeaseHost() {
			return new CustomLeaseHost();
		}

		@Bean
		CustomLeaseHost secondLeaseHost() {
			return new CustomLeaseHost();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class JobsConfiguration {

		@Bean
		LeasedJobs leasedJobs(LeaseHost host) {
			return new LeasedJobs(host);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserTemplateConfiguration {

		@Bean
		LeaseTemplate myTemplate(LeaseHost host) {
			return new LeaseTemplate(host, "mine", OnOverrun.WARN);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserAdvisorConfiguration {

		@Bean
		static LeasedAdvisor myAdvisor() {
			return new LeasedAdvisor(new LeasedMethodInterceptor(InMemoryLeaseHost::new, "mine", OnOverrun.WARN, null));
		}

	}

}
