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

import dev.lease.Allowance
import dev.lease.Fence
import dev.lease.Lease
import dev.lease.LeaseHost
import dev.lease.LeaseKey
import dev.lease.annotation.Fenced
import dev.lease.annotation.Leased
import dev.lease.aop.FencedAdvisor
import dev.lease.aop.LeasedAdvisor
import dev.lease.aop.LeasedMethodInterceptor
import dev.lease.fence.FenceAllowances
import dev.lease.fence.FenceBinding
import dev.lease.host.inmemory.InMemoryLeaseHost
import dev.lease.template.OnOverrun
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.take
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.DisplayName
import org.junit.jupiter.api.Test
import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator
import org.springframework.context.annotation.AnnotationConfigApplicationContext
import java.time.Duration
import java.util.UUID
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.atomic.AtomicReference
import java.util.function.Supplier

/**
 * Tests for `@Leased` on functions returning a Kotlin `Flow`, suspending or not: the key
 * is held for the whole collection, every element is delivered, and the grant is bound
 * wherever the collection of a plain function's `Flow` runs.
 *
 * @author Lease contributors
 */
class FlowLeasedTests {

	private val host = InMemoryLeaseHost()

	private val context = AnnotationConfigApplicationContext()

	@AfterEach
	fun closeContext() {
		this.context.close()
	}

	@Test
	@DisplayName("Invariant 1: a leased suspend function returning a Flow delivers every element, each while the grant stands")
	fun suspendFunctionFlowDeliversEveryElementUnderTheGrant() {
		val probe = work()
		val values = runBlocking(Dispatchers.Default) { probe.self.get().suspendNumbers().toList() }
		assertThat(values).containsExactly(1, 2, 3)
		assertThat(probe.standing).`as`("grant standing when each element was made").containsExactly(true, true, true)
		assertThat(this.host.grant(LeaseKey.of(probe.key))).isEmpty
	}

	@Test
	@DisplayName("Invariant 1: a leased function returning a Flow is held while the Flow is collected, not only while it is made")
	fun flowFunctionIsLeasedForItsCollection() {
		val probe = work()
		val values = runBlocking(Dispatchers.Default) { probe.self.get().numbers().toList() }
		assertThat(values).containsExactly(1, 2, 3)
		assertThat(probe.standing).`as`("grant standing when each element was made").containsExactly(true, true, true)
		assertThat(this.host.grant(LeaseKey.of(probe.key))).isEmpty
	}

	@Test
	@DisplayName("Operation 11: a collector that stops early releases the key of a leased suspend function's Flow")
	fun collectorStoppingEarlyReleasesTheKey() {
		val probe = work()
		val values = runBlocking(Dispatchers.Default) { probe.self.get().suspendNumbers().take(1).toList() }
		assertThat(values).containsExactly(1)
		runBlocking {
			withTimeout(10_000) {
				while (this@FlowLeasedTests.host.grant(LeaseKey.of(probe.key)).isPresent) {
					delay(5)
				}
			}
		}
	}

	@Test
	@DisplayName("Fence 5: a @Fenced call inside a leased function's Flow, after the Flow suspended, mints its fence from the grant")
	fun fencedCallInsideAFlowMintsFromTheGrant() {
		val probe = work()
		val fences = runBlocking(Dispatchers.Default) { probe.self.get().fenced().toList() }
		val granted = probe.granted.get()
		assertThat(granted).isNotNull
		assertThat(fences).containsExactly(Fence.mint(granted, ALLOWANCE), Fence.mint(granted, ALLOWANCE))
	}

	@Test
	@DisplayName("Fence 5: in a leased suspend function's Flow a @Fenced call finds the grant until the Flow first suspends, and never mints from anything else after: Spring collects it in a coroutine of its own")
	fun fencedCallInsideASuspendFunctionsFlowFindsTheGrantUntilItSuspends() {
		val probe = work()
		val fences = runBlocking(Dispatchers.Default) { probe.self.get().suspendFenced().toList() }
		val granted = probe.granted.get()
		assertThat(granted).isNotNull
		assertThat(fences).hasSize(2)
		val minted = Fence.mint(granted, ALLOWANCE).toString()
		assertThat(fences[0]).isEqualTo(minted)
		// After the Flow suspended, the call finds the grant only if its continuation runs
		// where it is still bound: either way, never a fence from anything else.
		assertThat(fences[1]).satisfiesAnyOf({ assertThat(it).contains("outside any lease") },
				{ assertThat(it).isEqualTo(minted) })
	}

	private fun work(): Probe {
		val probe = Probe(this.host)
		this.context.registerBean(LeaseHost::class.java, Supplier { this.host })
		this.context.registerBean(DefaultAdvisorAutoProxyCreator::class.java, Supplier {
			DefaultAdvisorAutoProxyCreator().apply { isProxyTargetClass = true }
		})
		this.context.registerBean(LeasedAdvisor::class.java, Supplier {
			LeasedAdvisor(LeasedMethodInterceptor({ this.context.getBean(LeaseHost::class.java) }, "kotlin-test",
					OnOverrun.FAIL, this.context.beanFactory))
		})
		this.context.registerBean(FencedAdvisor::class.java, Supplier {
			FencedAdvisor(FenceAllowances.of(mapOf("store" to ALLOWANCE)))
		})
		this.context.registerBean(Store::class.java, Supplier { Store() })
		this.context.registerBean(Work::class.java, Supplier { Work(probe, this.context.getBean(Store::class.java)) })
		this.context.refresh()
		probe.self.set(this.context.getBean(Work::class.java))
		return probe
	}

	companion object {

		private val ALLOWANCE = Allowance.of(Duration.ofMillis(300))

	}

	/**
	 * What the leased functions saw, kept outside the proxied bean: a proxy's own fields
	 * are not the target's.
	 */
	class Probe(val host: LeaseHost) {

		val key = "flow-" + UUID.randomUUID()

		val standing = CopyOnWriteArrayList<Boolean>()

		val granted = AtomicReference<Lease>()

		val self = AtomicReference<Work>()

		fun record() {
			val grant = this.host.grant(LeaseKey.of(this.key))
			grant.ifPresent { this.granted.compareAndSet(null, it) }
			this.standing.add(grant.isPresent)
		}

	}

	open class Store {

		@Fenced("store")
		open fun now(): Fence = FenceBinding.required("store").fence()

	}

	open class Work(private val probe: Probe, private val store: Store) {

		open fun key() = this.probe.key

		@Leased(key = "key()", duration = "10s")
		open suspend fun suspendNumbers(): Flow<Int> {
			delay(1)
			return flow {
				for (i in 1..3) {
					delay(5)
					this@Work.probe.record()
					emit(i)
				}
			}
		}

		@Leased(key = "key()", duration = "10s")
		open fun numbers(): Flow<Int> = flow {
			for (i in 1..3) {
				delay(5)
				this@Work.probe.record()
				emit(i)
			}
		}

		@Leased(key = "key()", duration = "10s")
		open suspend fun suspendFenced(): Flow<String> = flow {
			this@Work.probe.record()
			emit(this@Work.store.now().toString())
			delay(5)
			emit(runCatching { this@Work.store.now().toString() }.getOrElse { it.message ?: "" })
		}

		@Leased(key = "key()", duration = "10s")
		open fun fenced(): Flow<Fence> = flow {
			for (i in 1..2) {
				delay(5)
				this@Work.probe.record()
				emit(this@Work.store.now())
			}
		}

	}

}
