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
import dev.lease.LeaseKey
import dev.lease.LeaseUnavailableException
import dev.lease.Taken
import dev.lease.host.inmemory.InMemoryLeaseHost
import dev.lease.tck.LeaseHostProbes
import dev.lease.template.LeaseStack
import dev.lease.template.LeaseTemplate
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.DisplayName
import org.junit.jupiter.api.Test
import java.time.Duration
import java.util.UUID
import java.util.concurrent.atomic.AtomicInteger

/**
 * Tests for the coroutine extensions of [LeaseTemplate] over the in-memory host.
 *
 * @author Lease contributors
 */
class LeaseTemplateExtensionsTests {

	private val host = InMemoryLeaseHost()

	private val template = LeaseTemplate(this.host)

	private val key = "kt-" + UUID.randomUUID()

	@AfterEach
	fun closeTemplate() {
		this.template.close()
	}

	@Test
	@DisplayName("Invariant 1: concurrent withLease blocks on one key run one at a time across their suspensions")
	fun concurrentBlocksRunOneAtATime() {
		val inFlight = AtomicInteger()
		val mostAtOnce = AtomicInteger()
		val values = runBlocking(Dispatchers.Default) {
			(1..5).map { call ->
				async {
					this@LeaseTemplateExtensionsTests.template.withLease(this@LeaseTemplateExtensionsTests.key,
							Duration.ofSeconds(10)) {
						mostAtOnce.accumulateAndGet(inFlight.incrementAndGet(), Math::max)
						delay(100)
						inFlight.decrementAndGet()
						call
					}
				}
			}.awaitAll()
		}
		assertThat(values).containsExactly(1, 2, 3, 4, 5)
		assertThat(mostAtOnce.get()).isEqualTo(1)
		assertThat(this.host.grant(LeaseKey.of(this.key))).isEmpty
	}

	@Test
	@DisplayName("Operation 8, 11: the grant stands and is bound across a delay, and is released before withLease returns")
	fun grantStandsAcrossDelayAndIsReleasedBeforeReturning() {
		runBlocking(Dispatchers.Default) {
			val lease = this@LeaseTemplateExtensionsTests.template.withLease(this@LeaseTemplateExtensionsTests.key,
					Duration.ofSeconds(10)) { lease ->
				assertThat(LeaseStack.innermost()).isEqualTo(lease)
				delay(100)
				assertThat(LeaseStack.innermost()).isEqualTo(lease)
				assertThat(this@LeaseTemplateExtensionsTests.host.remaining(lease.key(), lease.holder())).isPresent
				lease
			}
			assertThat(this@LeaseTemplateExtensionsTests.host.remaining(lease.key(), lease.holder())).isEmpty
			assertThat(LeaseStack.innermost()).isNull()
		}
	}

	@Test
	@DisplayName("Operation 11: a failing block releases its key before the failure reaches the caller")
	fun failureReleases() {
		val standingWhenHeard = runBlocking(Dispatchers.Default) {
			try {
				this@LeaseTemplateExtensionsTests.template.withLease(this@LeaseTemplateExtensionsTests.key,
						Duration.ofSeconds(10)) {
					delay(20)
					throw IllegalStateException("failed on purpose")
				}
			}
			catch (ex: IllegalStateException) {
				this@LeaseTemplateExtensionsTests.host.grant(LeaseKey.of(this@LeaseTemplateExtensionsTests.key))
					.isPresent
			}
		}
		assertThat(standingWhenHeard).isFalse()
	}

	@Test
	@DisplayName("Operation 11: a block cancelled while it holds its key releases it")
	fun cancellationWhileHoldingReleases() {
		runBlocking(Dispatchers.Default) {
			val holding = CompletableDeferred<Unit>()
			val job = launch {
				this@LeaseTemplateExtensionsTests.template.withLease(this@LeaseTemplateExtensionsTests.key,
						Duration.ofSeconds(10)) {
					holding.complete(Unit)
					delay(60_000)
				}
			}
			withTimeout(5_000) { holding.await() }
			job.cancel()
			job.join()
		}
		assertThat(this.host.grant(LeaseKey.of(this.key))).isEmpty
	}

	@Test
	@DisplayName("Operation 1: a withLease cancelled while it waits for the key withdraws its take")
	fun cancellationWhileWaitingWithdraws() {
		val key = LeaseKey.of(this.key)
		assertThat(this.host.tryTake(key, LeaseHolder.of("other"), Duration.ofSeconds(30))).isInstanceOf(Taken::class.java)
		val ran = AtomicInteger()
		runBlocking(Dispatchers.Default) {
			val job = launch {
				this@LeaseTemplateExtensionsTests.template.withLease(this@LeaseTemplateExtensionsTests.key,
						Duration.ofSeconds(10)) { ran.incrementAndGet() }
			}
			LeaseHostProbes.awaitWaiting(this@LeaseTemplateExtensionsTests.host, key, 1, Duration.ofSeconds(30))
			job.cancel()
			job.join()
		}
		// the take left the queue, so the release below hands the key to nobody
		LeaseHostProbes.awaitWaiting(this.host, key, 0, Duration.ofSeconds(30))
		this.host.release(key, LeaseHolder.of("other"))
		assertThat(this.host.grant(key)).isEmpty
		assertThat(ran.get()).isZero()
	}

	@Test
	@DisplayName("Operation 7: tryWithLease on a held key answers null without running the block")
	fun tryWithLeaseOnHeldKeyAnswersNull() {
		val key = LeaseKey.of(this.key)
		assertThat(this.host.tryTake(key, LeaseHolder.of("other"), Duration.ofSeconds(30))).isInstanceOf(Taken::class.java)
		val value = runBlocking {
			this@LeaseTemplateExtensionsTests.template.tryWithLease(this@LeaseTemplateExtensionsTests.key,
					Duration.ofSeconds(10)) { "ran" }
		}
		assertThat(value).isNull()
		this.host.release(key, LeaseHolder.of("other"))
		val ran = runBlocking {
			this@LeaseTemplateExtensionsTests.template.tryWithLease(this@LeaseTemplateExtensionsTests.key,
					Duration.ofSeconds(10)) { "ran" }
		}
		assertThat(ran).isEqualTo("ran")
		assertThat(this.host.grant(key)).isEmpty
	}

	@Test
	@DisplayName("Operation 4: withLease whose arrival term runs out behind an earlier waiter throws LeaseUnavailableException")
	fun withLeaseWhoseArrivalTermRunsOutThrows() {
		val key = LeaseKey.of(this.key)
		assertThat(this.host.tryTake(key, LeaseHolder.of("other"), Duration.ofMillis(500))).isInstanceOf(Taken::class.java)
		val ahead = Thread { this.host.take(key, LeaseHolder.of("ahead"), Duration.ofSeconds(30)) }
		ahead.start()
		LeaseHostProbes.awaitQueued(this.host, key, LeaseHolder.of("ahead"), Duration.ofSeconds(30))
		val failure = runBlocking {
			runCatching {
				this@LeaseTemplateExtensionsTests.template.withLease(this@LeaseTemplateExtensionsTests.key,
						Duration.ofSeconds(1)) { "ran" }
			}.exceptionOrNull()
		}
		ahead.join()
		assertThat(failure).isInstanceOf(LeaseUnavailableException::class.java)
		this.host.release(key, LeaseHolder.of("ahead"))
	}

}
