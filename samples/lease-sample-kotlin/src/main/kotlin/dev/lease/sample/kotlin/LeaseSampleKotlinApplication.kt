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

package dev.lease.sample.kotlin

import dev.lease.annotation.Leased
import dev.lease.kotlin.tryWithLease
import dev.lease.kotlin.withLease
import dev.lease.template.LeaseStack
import dev.lease.template.LeaseTemplate
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import org.springframework.boot.ApplicationRunner
import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.boot.runApplication
import org.springframework.context.annotation.Bean
import org.springframework.stereotype.Component
import java.time.Duration
import java.time.Instant
import java.util.concurrent.atomic.AtomicInteger

/**
 * Orders settled under leases from Kotlin coroutines: five concurrent settlements of one
 * order through a leased `suspend` function run one at a time, each holding its grant
 * across its suspensions; then the same through `LeaseTemplate.withLease`, and a
 * `tryWithLease` that finds the key held.
 *
 * @author Lease contributors
 */
@SpringBootApplication(proxyBeanMethods = false)
open class LeaseSampleKotlinApplication {

	@Bean
	open fun demonstration(settlement: Settlement, leases: LeaseTemplate) = ApplicationRunner {
		runBlocking(Dispatchers.Default) {
			println("Five concurrent settlements of order 42 through @Leased suspend fun settle:")
			(1..5).map { call -> async { settlement.settle("42", call) } }.awaitAll().forEach(::println)
			println("most in flight at once: ${settlement.mostAtOnce.get()}")
			println()
			println("Five concurrent settlements of order 43 through LeaseTemplate.withLease:")
			(1..5).map { call ->
				async {
					leases.withLease("order:43", Duration.ofSeconds(10)) { lease ->
						delay(100)
						"call $call held ${lease.key()} as ${lease.holder()} until ${lease.expiresAt()}"
					}
				}
			}.awaitAll().forEach(::println)
			println()
			val held = async { leases.withLease("order:44", Duration.ofSeconds(10)) { delay(500) } }
			delay(100)
			val tried = leases.tryWithLease("order:44", Duration.ofSeconds(10)) { "ran" }
			println("tryWithLease on order 44 while it is held: ${tried ?: "did not run, the key is held"}")
			held.await()
		}
	}

}

/**
 * Settles orders, one at a time per order across every coroutine of this JVM.
 */
@Component
open class Settlement {

	private val inFlight = AtomicInteger()

	/** The most settlements of one order that ever ran at once. */
	open val mostAtOnce = AtomicInteger()

	/**
	 * Settle an order under its lease: the grant stands across the `delay`, and the
	 * coroutine carries it wherever it resumes.
	 */
	@Leased(key = "'order:' + #id", duration = "10s")
	open suspend fun settle(id: String, call: Int): String {
		this.mostAtOnce.accumulateAndGet(this.inFlight.incrementAndGet(), Math::max)
		try {
			val started = Instant.now()
			delay(200)
			val lease = LeaseStack.innermost()
			return "call $call settled order $id from $started to ${Instant.now()} under ${lease?.holder()}"
		}
		finally {
			this.inFlight.decrementAndGet()
		}
	}

}

/**
 * Start the sample: it prints what it did and exits.
 * @param args the command line
 */
fun main(args: Array<String>) {
	runApplication<LeaseSampleKotlinApplication>(*args)
}
