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

import dev.lease.Lease
import dev.lease.LeaseHolder
import dev.lease.LeaseHost
import dev.lease.LeaseKey
import dev.lease.ReentrantTakeException
import dev.lease.Taken
import dev.lease.annotation.Leased
import dev.lease.aop.LeasedAdvisor
import dev.lease.aop.LeasedMethodInterceptor
import dev.lease.host.inmemory.InMemoryLeaseHost
import dev.lease.tck.LeaseHostProbes
import dev.lease.template.LeaseStack
import dev.lease.template.OnOverrun
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.DisplayName
import org.junit.jupiter.api.Test
import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator
import org.springframework.context.annotation.AnnotationConfigApplicationContext
import java.time.Duration
import java.util.Optional
import java.util.UUID
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicReference
import java.util.function.Supplier

/**
 * Tests for `@Leased` on Kotlin `suspend` functions, with kotlinx-coroutines-reactor on
 * the class path: the key is held until the coroutine completes.
 *
 * @author Lease contributors
 */
class SuspendLeasedTests {

	private val host = InMemoryLeaseHost()

	private val context = AnnotationConfigApplicationContext()

	@AfterEach
	fun closeContext() {
		this.context.close()
	}

	@Test
	@DisplayName("Invariant 1: five concurrent calls of a leased suspend function run one at a time across their suspensions")
	fun concurrentSuspendCallsRunOneAtATime() {
		val probe = work()
		val work = probe.self.get()
		runBlocking(Dispatchers.Default) {
			(1..5).map { async { work.work() } }.awaitAll()
		}
		assertThat(probe.mostAtOnce.get()).`as`("calls in flight at once").isEqualTo(1)
		assertThat(probe.calls.get()).isEqualTo(5)
		assertThat(this.host.grant(LeaseKey.of(probe.key))).isEmpty
	}

	@Test
	@DisplayName("Operation 8: the grant stands across a delay, and the fence's grant is bound wherever the coroutine resumes")
	fun grantStandsAcrossDelayAndIsBoundAfterResuming() {
		val probe = work()
		val work = probe.self.get()
		runBlocking(Dispatchers.Default) {
			work.holdAcrossDelay()
		}
		val before = probe.boundBefore.single()
		val after = probe.boundAfter.single()
		assertThat(before).isNotNull
		assertThat(after).isEqualTo(before)
		assertThat(probe.remainingAfterDelay.single()).isPresent
		assertThat(this.host.remaining(before!!.key(), before.holder())).isEmpty
		assertThat(LeaseStack.innermost()).isNull()
	}

	@Test
	@DisplayName("Operation 11: a leased suspend function that fails releases its key before its caller hears the failure")
	fun failureReleasesBeforeTheCallerHears() {
		val probe = work()
		val work = probe.self.get()
		var standingWhenHeard: Boolean? = null
		runBlocking(Dispatchers.Default) {
			try {
				work.fail()
			}
			catch (ex: IllegalStateException) {
				standingWhenHeard = this@SuspendLeasedTests.host.grant(LeaseKey.of(probe.key)).isPresent
			}
		}
		assertThat(standingWhenHeard).isFalse()
	}

	@Test
	@DisplayName("Operation 11: cancelling a leased suspend function while it holds its key releases the key")
	fun cancellationWhileHoldingReleases() {
		val probe = work()
		val work = probe.self.get()
		runBlocking(Dispatchers.Default) {
			val job = launch { work.holdUntilCancelled() }
			withTimeout(5_000) { probe.holding.await() }
			job.cancel()
			job.join()
			withTimeout(5_000) {
				while (this@SuspendLeasedTests.host.grant(LeaseKey.of(probe.key)).isPresent) {
					delay(5)
				}
			}
		}
		assertThat(this.host.grant(LeaseKey.of(probe.key))).isEmpty
	}

	@Test
	@DisplayName("Operation 1: cancelling a leased suspend function while it waits for its key withdraws the take")
	fun cancellationWhileWaitingWithdrawsTheTake() {
		val probe = work()
		val work = probe.self.get()
		val key = LeaseKey.of(probe.key)
		val other = LeaseHolder.of("other")
		assertThat(this.host.tryTake(key, other, Duration.ofSeconds(30))).isInstanceOf(Taken::class.java)
		runBlocking(Dispatchers.Default) {
			val job = launch { work.work() }
			LeaseHostProbes.awaitWaiting(this@SuspendLeasedTests.host, key, 1, Duration.ofSeconds(30))
			job.cancel()
			job.join()
		}
		// the take left the queue, so the release below hands the key to nobody
		LeaseHostProbes.awaitWaiting(this.host, key, 0, Duration.ofSeconds(30))
		this.host.release(key, other)
		assertThat(this.host.grant(key)).isEmpty
		assertThat(probe.calls.get()).isZero()
	}

	@Test
	@DisplayName("Non-goal 1: a nested leased suspend call on the key the coroutine holds is refused")
	fun nestedCallOnHeldKeyIsRefused() {
		val probe = work()
		val work = probe.self.get()
		val failure = runBlocking(Dispatchers.Default) { runCatching { work.nested() }.exceptionOrNull() }
		assertThat(failure).isInstanceOf(ReentrantTakeException::class.java)
		assertThat(this.host.grant(LeaseKey.of(probe.key))).isEmpty
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
		this.context.registerBean(Work::class.java, Supplier { Work(probe) })
		this.context.refresh()
		probe.self.set(this.context.getBean(Work::class.java))
		return probe
	}

	/**
	 * What the leased functions saw, kept outside the proxied bean: a proxy's own fields
	 * are not the target's.
	 */
	class Probe(val host: LeaseHost) {

		val key = "k-" + UUID.randomUUID()

		val inFlight = AtomicInteger()

		val mostAtOnce = AtomicInteger()

		val calls = AtomicInteger()

		val boundBefore = CopyOnWriteArrayList<Lease?>()

		val boundAfter = CopyOnWriteArrayList<Lease?>()

		val remainingAfterDelay = CopyOnWriteArrayList<Optional<Duration>>()

		val holding = CompletableDeferred<Unit>()

		val self = AtomicReference<Work>()

	}

	open class Work(private val probe: Probe) {

		open fun key() = this.probe.key

		@Leased(key = "key()", duration = "10s")
		open suspend fun work() {
			this.probe.calls.incrementAndGet()
			this.probe.mostAtOnce.accumulateAndGet(this.probe.inFlight.incrementAndGet(), Math::max)
			try {
				delay(200)
			}
			finally {
				this.probe.inFlight.decrementAndGet()
			}
		}

		@Leased(key = "key()", duration = "10s")
		open suspend fun holdAcrossDelay() {
			val lease = LeaseStack.innermost()
			this.probe.boundBefore.add(lease)
			delay(100)
			yield()
			this.probe.boundAfter.add(LeaseStack.innermost())
			this.probe.remainingAfterDelay.add(this.probe.host.remaining(lease!!.key(), lease.holder()))
		}

		@Leased(key = "key()", duration = "10s")
		open suspend fun fail() {
			delay(20)
			throw IllegalStateException("failed on purpose")
		}

		@Leased(key = "key()", duration = "10s")
		open suspend fun holdUntilCancelled() {
			this.probe.holding.complete(Unit)
			delay(60_000)
		}

		@Leased(key = "key()", duration = "10s")
		open suspend fun nested() {
			delay(10)
			this.probe.self.get().work()
		}

	}

}
