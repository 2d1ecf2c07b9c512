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

package dev.lease.aop;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.TryTakeResult;
import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.template.OnOverrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeasedAdvisor} composed with {@code @Transactional} and
 * {@code @Scheduled} in a real application context.
 *
 * @author Lease contributors
 */
class LeasedCompositionTests {

	@Test
	void leaseEnclosesTheTransactionSoItCommitsBeforeTheRelease() {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(
				TransactionalConfiguration.class)) {
			List<String> events = context.getBean(Events.class).list;
			context.getBean(TransactionalJobs.class).settle(UUID.randomUUID().toString());
			assertThat(events).containsExactly("take", "begin", "work", "commit", "release");
		}
	}

	@Test
	void scheduledMethodWithTryTakeAndSkipRunsWhenTheKeyIsFree() {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(
				ScheduledConfiguration.class)) {
			ScheduledJobs jobs = context.getBean(ScheduledJobs.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> jobs.runs().get() >= 2);
		}
	}

	@Test
	void scheduledMethodWithTryTakeAndSkipIsSkippedWhileTheKeyIsHeld() {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(
				ScheduledConfiguration.class)) {
			ScheduledJobs jobs = context.getBean(ScheduledJobs.class);
			LeaseHost host = context.getBean(LeaseHost.class);
			host.tryTake(LeaseKey.of("nightly-report"), LeaseHolder.of("other-instance"), Duration.ofMinutes(1));
			int before = jobs.runs().get();
			Events events = context.getBean(Events.class);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> events.list.stream().filter("tryTake"::equals).count() >= 3);
			assertThat(jobs.runs().get()).isLessThanOrEqualTo(before + 1);
		}
	}

	static class Events {

		final List<String> list = new CopyOnWriteArrayList<>();

	}

	static class EventLeaseHost extends RecordingLeaseHost {

		private final Events events;

		EventLeaseHost(Events events) {
			super(new InMemoryLeaseHost());
			this.events = events;
		}

		@Override
		public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
			this.events.list.add("take");
			return super.take(key, holder, duration);
		}

		@Override
		public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
			this.events.list.add("tryTake");
			return super.tryTake(key, holder, duration);
		}

		@Override
		public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
			this.events.list.add("release");
			return super.release(key, holder);
		}

	}

	@SuppressWarnings("serial")
	static class RecordingTransactionManager extends AbstractPlatformTransactionManager {

		private final transient Events events;

		RecordingTransactionManager(Events events) {
			this.events = events;
		}

		@Override
		protected Object doGetTransaction() {
			return new Object();
		}

		@Override
		protected void doBegin(Object transaction, TransactionDefinition definition) {
			this.events.list.add("begin");
		}

		@Override
		protected void doCommit(DefaultTransactionStatus status) {
			this.events.list.add("commit");
		}

		@Override
		protected void doRollback(DefaultTransactionStatus status) {
			this.events.list.add("rollback");
		}

	}

	static class TransactionalJobs {

		private final Events events;

		TransactionalJobs(Events events) {
			this.events = events;
		}

		@Leased(key = "#id", duration = "30s")
		@Transactional
		void settle(String id) {
			this.events.list.add("work");
		}

	}

	static class ScheduledJobs {

		private final AtomicInteger runs = new AtomicInteger();

		AtomicInteger runs() {
			return this.runs;
		}

		@Scheduled(fixedDelay = 50)
		@Leased(key = "'nightly-report'", duration = "5s", mode = LeaseMode.TRY_TAKE,
				onUnavailable = OnUnavailable.SKIP)
		void report() {
			this.runs.incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(proxyTargetClass = true)
	static class TransactionalConfiguration {

		@Bean
		Events events() {
			return new Events();
		}

		@Bean
		EventLeaseHost leaseHost(Events events) {
			return new EventLeaseHost(events);
		}

		@Bean
		RecordingTransactionManager transactionManager(Events events) {
			return new RecordingTransactionManager(events);
		}

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static LeasedAdvisor leasedAdvisor(BeanFactory beanFactory) {
			return new LeasedAdvisor(new LeasedMethodInterceptor(() -> beanFactory.getBean(LeaseHost.class), "test",
					OnOverrun.WARN, beanFactory));
		}

		@Bean
		TransactionalJobs transactionalJobs(Events events) {
			return new TransactionalJobs(events);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class ScheduledConfiguration {

		@Bean
		Events events() {
			return new Events();
		}

		@Bean
		EventLeaseHost leaseHost(Events events) {
			return new EventLeaseHost(events);
		}

		@Bean
		static DefaultAdvisorAutoProxyCreator autoProxyCreator() {
			DefaultAdvisorAutoProxyCreator creator = new DefaultAdvisorAutoProxyCreator();
			creator.setProxyTargetClass(true);
			return creator;
		}

		@Bean
		static LeasedAdvisor leasedAdvisor(BeanFactory beanFactory) {
			return new LeasedAdvisor(new LeasedMethodInterceptor(() -> beanFactory.getBean(LeaseHost.class), "test",
					OnOverrun.WARN, beanFactory));
		}

		@Bean
		ScheduledJobs scheduledJobs() {
			return new ScheduledJobs();
		}

	}

}
