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

import dev.lease.LeaseHost
import dev.lease.annotation.Leased
import dev.lease.aop.LeasedAdvisor
import dev.lease.aop.LeasedMethodInterceptor
import dev.lease.host.inmemory.InMemoryLeaseHost
import dev.lease.template.OnOverrun
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatException
import org.junit.jupiter.api.DisplayName
import org.junit.jupiter.api.Test
import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator
import org.springframework.context.annotation.AnnotationConfigApplicationContext
import org.springframework.util.ClassUtils
import java.util.function.Supplier

/**
 * `@Leased` on a suspend function without kotlinx-coroutines-reactor, which Spring
 * invokes suspend functions through, or on a function returning a `Flow`, whose
 * collection is leased through it: start-up fails naming the function. Run by its own
 * surefire execution, with kotlinx-coroutines-reactor off the class path.
 *
 * @author Lease contributors
 */
class NoCoroutinesReactorTests {

	@Test
	@DisplayName("Invariant 1: a leased suspend function without kotlinx-coroutines-reactor fails start-up, naming the function and the missing library")
	fun leasedSuspendFunctionWithoutCoroutinesReactorFailsStartUp() {
		assertThat(ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt", null)).`as`("coroutines-reactor on the class path")
			.isFalse()
		val context = context(Supplier { Work() }, Work::class.java)
		assertThatException().isThrownBy { context.refresh() }
			.withStackTraceContaining("NoCoroutinesReactorTests\$Work.work()")
			.withStackTraceContaining("kotlinx-coroutines-reactor")
		context.close()
	}

	@Test
	@DisplayName("Invariant 1: a leased function returning a Flow without kotlinx-coroutines-reactor fails start-up: its collection could not be leased")
	fun leasedFlowFunctionWithoutCoroutinesReactorFailsStartUp() {
		val context = context(Supplier { Flows() }, Flows::class.java)
		assertThatException().isThrownBy { context.refresh() }
			.withStackTraceContaining("NoCoroutinesReactorTests\$Flows.numbers()")
			.withStackTraceContaining("is collected after the method returned")
			.withStackTraceContaining("kotlinx-coroutines-reactor")
		context.close()
	}

	private fun <T : Any> context(bean: Supplier<T>, type: Class<T>): AnnotationConfigApplicationContext {
		val context = AnnotationConfigApplicationContext()
		context.registerBean(LeaseHost::class.java, Supplier { InMemoryLeaseHost() })
		context.registerBean(DefaultAdvisorAutoProxyCreator::class.java, Supplier {
			DefaultAdvisorAutoProxyCreator().apply { isProxyTargetClass = true }
		})
		context.registerBean(LeasedAdvisor::class.java, Supplier {
			LeasedAdvisor(LeasedMethodInterceptor({ context.getBean(LeaseHost::class.java) }, "kotlin-test",
					OnOverrun.FAIL, context.beanFactory))
		})
		context.registerBean(type, bean)
		return context
	}

	open class Work {

		@Leased(key = "'k'", duration = "10s")
		open suspend fun work() {
			delay(200)
		}

	}

	open class Flows {

		@Leased(key = "'k'", duration = "10s")
		open fun numbers(): Flow<Int> = flow { emit(1) }

	}

}
