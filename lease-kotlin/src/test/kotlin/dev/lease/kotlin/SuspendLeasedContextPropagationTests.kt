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

package dev.lease.kotlin

import dev.lease.LeaseHolder
import dev.lease.LeaseHost
import dev.lease.LeaseKey
import dev.lease.Taken
import dev.lease.annotation.Leased
import dev.lease.autoconfigure.LeaseAutoConfiguration
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration
import dev.lease.template.LeaseStack
import io.micrometer.context.integration.Slf4jThreadLocalAccessor
import io.micrometer.core.instrument.kotlin.asContextElement
import io.micrometer.observation.Observation
import io.micrometer.observation.ObservationRegistry
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.slf4j.MDCContext
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.DisplayName
import org.junit.jupiter.api.Test
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration
import org.springframework.boot.test.context.runner.ApplicationContextRunner
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.task.TaskDecorator
import java.time.Duration
import java.util.UUID
import java.util.concurrent.Executor
import java.util.concurrent.atomic.AtomicBoolean
import kotlin.coroutines.AbstractCoroutineContextElement
import kotlin.coroutines.CoroutineContext
import kotlin.coroutines.coroutineContext

/**
 * Tests for the context a `@Leased` `suspend` function sees when its take had to wait:
 * the caller's, as it would without the lease. The Kotlin side of
 * `LeasedContextPropagationTests` (lease-autoconfigure), with Boot's wiring of the advice
 * and the application's `TaskDecorator`.
 *
 * @author Lease contributors
 */
class SuspendLeasedContextPropagationTests {

	private val runner = ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration::class.java,
				LeaseAutoConfiguration::class.java, InMemoryLeaseHostAutoConfiguration::class.java))
		.withPropertyValues("spring.task.execution.thread-name-prefix=application-")
		.withUserConfiguration(ContextualConfiguration::class.java)

	@Test
	@DisplayName("Operation 1: a suspend body that waited runs on the caller's dispatcher, with the caller's MDC, Observation and coroutine context")
	fun suspendBodyThatWaitedSeesTheCallersContext() {
		this.runner.run { context ->
			val work = context.getBean(ContextualWork::class.java)
			val host = context.getBean(LeaseHost::class.java)
			val registry = context.getBean(ObservationRegistry::class.java)
			// The caller's coroutines run on the application's threads, which its
			// TaskDecorator decorates
			val application = context.getBean(TaskExecutionAutoConfiguration.APPLICATION_TASK_EXECUTOR_BEAN_NAME,
					Executor::class.java)
			val key = "context-" + UUID.randomUUID()
			val leaseKey = LeaseKey.of(key)
			val other = LeaseHolder.of("other-" + UUID.randomUUID())
			assertThat(host.tryTake(leaseKey, other, Duration.ofSeconds(30))).isInstanceOf(Taken::class.java)
			val released = AtomicBoolean()
			val observation = Observation.start("caller", registry)
			val seen = try {
				runBlocking(application.asCoroutineDispatcher()) {
					withContext(callerContext(registry, observation)) {
						// Runs until the call first suspends: the take is asked by then
						val call = async(start = CoroutineStart.UNDISPATCHED) { work.seen(key, released) }
						assertThat(call.isCompleted).`as`("the call while another holder has the key").isFalse()
						// Released elsewhere: the take is answered on a thread that is not the
						// application's
						withContext(Dispatchers.IO) {
							released.set(true)
							host.release(leaseKey, other)
						}
						withTimeout(30_000) { call.await() }
					}
				}
			}
			finally {
				observation.stop()
			}
			assertThat(seen.afterRelease).`as`("the body ran after the other holder released").isTrue()
			assertThat(seen.key).`as`("the grant bound in the body").isEqualTo(leaseKey)
			assertThat(seen.thread).`as`("the body's thread: the caller's dispatcher").startsWith("application-")
			assertThat(seen.decorated).`as`("the TaskDecorator's MDC value").isEqualTo("applied")
			assertThat(seen.request).`as`("the caller's MDC value").isEqualTo("42")
			assertThat(seen.observation).`as`("the current Observation").isEqualTo("caller")
			assertThat(seen.tenant).`as`("the caller's coroutine context element").isEqualTo("t1")
		}
	}

	// What a Kotlin caller does to carry its MDC and Observation across suspensions:
	// puts its MDC value, then captures it with MDCContext, and the Observation in scope
	// with Micrometer's element; and a context element of its own.
	private fun callerContext(registry: ObservationRegistry, observation: Observation): CoroutineContext {
		val before = mdc()
		MDC.setValue(before + ("request" to "42"))
		try {
			observation.openScope().use {
				return MDCContext() + registry.asContextElement() + Tenant("t1")
			}
		}
		finally {
			MDC.setValue(before)
		}
	}

	data class Seen(val thread: String, val request: String?, val decorated: String?, val observation: String?,
			val tenant: String?, val afterRelease: Boolean, val key: LeaseKey?)

	class Tenant(val name: String) : AbstractCoroutineContextElement(Tenant) {

		companion object Key : CoroutineContext.Key<Tenant>

	}

	open class ContextualWork(private val registry: ObservationRegistry) {

		@Leased(key = "#key", duration = "30s")
		open suspend fun seen(key: String, released: AtomicBoolean): Seen {
			val mdc = mdc()
			return Seen(Thread.currentThread().name, mdc["request"], mdc["decorated"],
					this.registry.currentObservation?.context?.name, coroutineContext[Tenant]?.name, released.get(),
					LeaseStack.innermost()?.key())
		}

	}

	@Configuration(proxyBeanMethods = false)
	open class ContextualConfiguration {

		@Bean
		open fun observationRegistry(): ObservationRegistry {
			val registry = ObservationRegistry.create()
			registry.observationConfig().observationHandler { true }
			return registry
		}

		// An application's usual MDC-copying decorator, which also marks the work it ran
		@Bean
		open fun mdcTaskDecorator(): TaskDecorator = TaskDecorator { task ->
			val submitted = mdc()
			Runnable {
				val previous = mdc()
				MDC.setValue(submitted + ("decorated" to "applied"))
				try {
					task.run()
				}
				finally {
					MDC.setValue(previous)
				}
			}
		}

		@Bean
		open fun contextualWork(registry: ObservationRegistry) = ContextualWork(registry)

	}

	companion object {

		// The MDC through context-propagation's accessor, as the Java tests reach it
		private val MDC = Slf4jThreadLocalAccessor()

		private fun mdc(): Map<String, String> = MDC.value ?: emptyMap()

	}

}
