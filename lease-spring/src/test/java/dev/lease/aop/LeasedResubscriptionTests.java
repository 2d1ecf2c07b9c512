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

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.aop.support.StaticMethodMatcherPointcutAdvisor;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.Ordered;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.annotation.Leased;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.template.OnOverrun;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A leased {@code Mono} or {@code Flux} subscribed more than once (a caller's
 * {@code retry} or {@code repeat}) runs its method through the whole advice chain each
 * time: an advice inside the lease (a reactive transaction, at its default order) is
 * never skipped on the second run.
 *
 * @author Lease contributors
 */
class LeasedResubscriptionTests {

	private final InMemoryLeaseHost host = new InMemoryLeaseHost();

	private final AtomicInteger innerAdvice = new AtomicInteger();

	private AnnotationConfigApplicationContext context;

	@AfterEach
	void close() {
		this.context.close();
	}

	@Test
	@DisplayName("Operation 1: a leased Mono retried by its caller runs the advice inside the lease on every attempt")
	void retriedMonoRunsTheInnerAdviceEachTime() {
		Work work = context();
		String key = "retry-" + UUID.randomUUID();
		String value = work.failsOnce(key).retry(1).block(Duration.ofSeconds(30));
		assertThat(value).isEqualTo("second");
		assertThat(work.calls()).as("runs of the method").hasValue(2);
		assertThat(this.innerAdvice).as("runs of the advice inside the lease").hasValue(2);
		assertThat(this.host.grant(LeaseKey.of(key))).isEmpty();
	}

	@Test
	@DisplayName("Operation 1: a leased Flux repeated by its caller runs the advice inside the lease on every subscription")
	void repeatedFluxRunsTheInnerAdviceEachTime() {
		Work work = context();
		String key = "repeat-" + UUID.randomUUID();
		assertThat(work.values(key).repeat(2).collectList().block(Duration.ofSeconds(30))).containsExactly(1, 2, 1, 2,
				1, 2);
		assertThat(work.calls()).as("runs of the method").hasValue(3);
		assertThat(this.innerAdvice).as("runs of the advice inside the lease").hasValue(3);
		assertThat(this.host.grant(LeaseKey.of(key))).isEmpty();
	}

	private Work context() {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		this.context = context;
		context.registerBean(LeaseHost.class, () -> this.host);
		context.registerBean(DefaultAdvisorAutoProxyCreator.class, () -> {
			DefaultAdvisorAutoProxyCreator creator = new DefaultAdvisorAutoProxyCreator();
			creator.setProxyTargetClass(true);
			return creator;
		});
		context.registerBean(LeasedAdvisor.class,
				() -> new LeasedAdvisor(new LeasedMethodInterceptor(() -> context.getBean(LeaseHost.class),
						"test-app@host:1", OnOverrun.FAIL, context.getBeanFactory())));
		context.registerBean("innerAdvisor", StaticMethodMatcherPointcutAdvisor.class, () -> inner());
		context.registerBean(Work.class);
		context.refresh();
		return context.getBean(Work.class);
	}

	// Where a transaction advisor stands by default: inside the lease.
	private StaticMethodMatcherPointcutAdvisor inner() {
		MethodInterceptor counting = (invocation) -> {
			this.innerAdvice.incrementAndGet();
			return invocation.proceed();
		};
		StaticMethodMatcherPointcutAdvisor advisor = new StaticMethodMatcherPointcutAdvisor(counting) {

			@Override
			public boolean matches(Method method, Class<?> targetClass) {
				return method.isAnnotationPresent(Leased.class);
			}

		};
		advisor.setOrder(Ordered.LOWEST_PRECEDENCE);
		return advisor;
	}

	static class Work {

		private final AtomicInteger calls = new AtomicInteger();

		@Leased(key = "#key", duration = "30s")
		Mono<String> failsOnce(String key) {
			int call = this.calls.incrementAndGet();
			return (call == 1) ? Mono.error(new IllegalStateException("first")) : Mono.just("second");
		}

		@Leased(key = "#key", duration = "30s")
		Flux<Integer> values(String key) {
			this.calls.incrementAndGet();
			return Flux.just(1, 2);
		}

		// read through the proxy, which keeps no fields of its own
		AtomicInteger calls() {
			return this.calls;
		}

	}

}
