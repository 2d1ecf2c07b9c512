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

package dev.lease.host;

import java.time.Instant;

import dev.lease.LeaseHostException;
import dev.lease.TakeResult;

/**
 * What a host supplies for one queued take to wait through the {@link WaiterMachine}: its
 * store's questions, for that waiter. A {@link BlockingWaiter} calls them on the caller's
 * thread.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public interface WaiterStore {

	/**
	 * Ask where the waiter stands.
	 * @param atBound whether its bound has passed: then this is its last question,
	 * "withdraw me, or tell me I was granted"
	 * @param answerBy when the store must have answered, as a {@link System#nanoTime()}
	 * reading
	 * @return granted, refused, or still queued, in instants on the host's clock
	 * @throws GaveUp if interrupted before anything was sent
	 * @throws LeaseHostException if the store gave no answer
	 */
	TakeAnswer ask(boolean atBound, long answerBy);

	/**
	 * Withdraw the waiter, a grant handed to it meanwhile given back. Made on the host's
	 * executor, and again after a failure, by {@link Withdrawals}.
	 * @throws LeaseHostException if the store could not be reached
	 */
	void withdraw();

	/**
	 * Poll the key's committed handoffs, as its delegate, waking the waiters of this JVM
	 * they name; only a host that polls is asked.
	 * @param answerBy when the store must have answered
	 * @return whether a waiter was woken
	 * @throws GaveUp if interrupted before anything was sent
	 * @throws LeaseHostException if the store gave no answer: it costs latency only
	 */
	default boolean poll(long answerBy) {
		return false;
	}

	/**
	 * Answer the grant the waiter was given.
	 * @param expiresAt the grant's instant
	 * @param handed whether a wake-up named the waiter, so that no question took the
	 * grant up at the store
	 * @return the take's result
	 */
	TakeResult taken(Instant expiresAt, boolean handed);

}
