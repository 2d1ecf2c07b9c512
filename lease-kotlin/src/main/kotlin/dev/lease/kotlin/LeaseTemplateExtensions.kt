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

@file:JvmName("LeaseTemplateExtensions")

package dev.lease.kotlin

import dev.lease.Lease
import dev.lease.LeaseExpiredException
import dev.lease.LeaseUnavailableException
import dev.lease.annotation.LeaseMode
import dev.lease.template.HeldLease
import dev.lease.template.LeaseOutcome
import dev.lease.template.LeaseRequest
import dev.lease.template.LeaseStackElement
import dev.lease.template.LeaseTemplate
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.future.await
import kotlinx.coroutines.withContext
import java.time.Duration
import java.util.concurrent.CompletableFuture
import kotlin.coroutines.cancellation.CancellationException
import kotlin.coroutines.coroutineContext

/**
 * Wait for the key without holding a thread, run [block] under it, and release it before
 * returning: the coroutine form of [LeaseTemplate.call]. The take waits in the host's
 * arrival order ([LeaseTemplate.takeAsync]); cancelling the coroutine while it waits
 * withdraws the take, and a grant made at that moment is given back. The grant is
 * released when [block] returns, throws or is cancelled, before this function returns;
 * while [block] runs, the coroutine carries the grant ([LeaseStackElement]), so
 * `@Fenced` calls inside mint their fences from it on whichever thread it resumes.
 *
 * @param request what to take
 * @param block the work, given the grant
 * @return the work's value
 * @throws LeaseUnavailableException when the key was not taken: the work did not run
 * @throws LeaseExpiredException when the work outran its term and the template's
 * overruns fail (added as suppressed to a failure of the work)
 */
suspend fun <T> LeaseTemplate.withLease(request: LeaseRequest, block: suspend (Lease) -> T): T {
	val held = awaitTake(request, LeaseMode.TAKE).orElseThrow()!!
	return runHeld(held, block)
}

/**
 * Wait for [key] for at most its arrival term, take it for [duration], and run [block]
 * under it: [withLease] with `LeaseRequest.of(key, duration)`.
 *
 * @param key the key
 * @param duration the term asked for
 * @param block the work, given the grant
 * @return the work's value
 * @throws LeaseUnavailableException when the key was not taken: the work did not run
 */
suspend fun <T> LeaseTemplate.withLease(key: String, duration: Duration, block: suspend (Lease) -> T): T =
	withLease(LeaseRequest.of(key, duration), block)

/**
 * Run [block] under the key if it can be taken without waiting, and release it before
 * returning: the coroutine form of [LeaseTemplate.tryRun], answering the work's value
 * instead of whether it ran.
 *
 * @param request what to take
 * @param block the work, given the grant
 * @return the work's value, or `null` when the key was held and the work did not run
 */
suspend fun <T : Any> LeaseTemplate.tryWithLease(request: LeaseRequest, block: suspend (Lease) -> T): T? {
	val held = awaitTake(request, LeaseMode.TRY_TAKE).value() ?: return null
	return runHeld(held, block)
}

/**
 * [tryWithLease] with `LeaseRequest.of(key, duration)`.
 *
 * @param key the key
 * @param duration the term asked for
 * @param block the work, given the grant
 * @return the work's value, or `null` when the key was held and the work did not run
 */
suspend fun <T : Any> LeaseTemplate.tryWithLease(key: String, duration: Duration, block: suspend (Lease) -> T): T? =
	tryWithLease(LeaseRequest.of(key, duration), block)

// Not named take: the template's own blocking take would win over an extension.
private suspend fun LeaseTemplate.awaitTake(request: LeaseRequest, mode: LeaseMode): LeaseOutcome<HeldLease> {
	val taking = takeAsync(request, mode)
	try {
		return taking.await()
	}
	catch (ex: CancellationException) {
		// cancelled just as the take was answered: the answer stands, so give it back
		answered(taking)?.value()?.let { releaseAsync(it) }
		throw ex
	}
}

private fun <T> answered(future: CompletableFuture<T>): T? =
	if (future.isDone && !future.isCancelled && !future.isCompletedExceptionally) future.getNow(null) else null

private suspend fun <T> LeaseTemplate.runHeld(held: HeldLease, block: suspend (Lease) -> T): T {
	val lease = held.lease()
	val value = try {
		withContext(LeaseStackElement.with(coroutineContext, lease)) {
			block(lease)
		}
	}
	catch (failure: Throwable) {
		try {
			withContext(NonCancellable) { releaseAsync(held).await() }
		}
		catch (overrun: LeaseExpiredException) {
			failure.addSuppressed(overrun)
		}
		throw failure
	}
	withContext(NonCancellable) { releaseAsync(held).await() }
	return value
}
