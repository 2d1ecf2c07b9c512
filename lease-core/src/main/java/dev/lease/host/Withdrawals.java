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

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHostException;

/**
 * How a waiter that gives up leaves the queue, so that nothing is handed to a caller who
 * already answered, and nothing is left held by one who gave up (Host semantics).
 * <p>
 * The failure that makes a waiter give up often outlasts one call (a pool whose other
 * connections broke too, a reconnecting client), so a failed withdrawal is tried again,
 * up to {@value #ATTEMPTS} times, 50, 100 and 200 ms apart, on a fresh call, while the
 * waiter's bound has not passed: after its bound, no release can hand the waiter the key.
 * A pending interrupt is put aside meanwhile so that the pauses pause, and set again.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class Withdrawals {

	/**
	 * How many times a withdrawal is tried.
	 */
	public static final int ATTEMPTS = 4;

	private static final long FIRST_PAUSE_MILLIS = 50;

	private Withdrawals() {
	}

	/**
	 * Withdraw a waiter, trying again while its bound has not passed.
	 * @param boundNanoTime the waiter's bound as a {@link System#nanoTime()} reading
	 * @param withdrawal one call that withdraws the waiter, or gives back a grant handed
	 * to it meanwhile, and throws {@link LeaseHostException} when the store could not be
	 * reached
	 * @return the last failure, or {@code null} once withdrawn
	 */
	public static @Nullable LeaseHostException withdraw(long boundNanoTime, Runnable withdrawal) {
		boolean interrupted = Thread.interrupted();
		try {
			for (int attempt = 1;; attempt++) {
				try {
					withdrawal.run();
					return null;
				}
				catch (LeaseHostException ex) {
					if (attempt >= ATTEMPTS || System.nanoTime() - boundNanoTime > 0) {
						return ex;
					}
					pause(TimeUnit.MILLISECONDS.toNanos(FIRST_PAUSE_MILLIS << (attempt - 1)));
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	// The interrupt put aside leaves the thread's park permit behind, and a park may
	// return early anyway: park until the pause is over.
	private static void pause(long nanos) {
		long end = System.nanoTime() + nanos;
		for (long left = nanos; left > 0; left = end - System.nanoTime()) {
			LockSupport.parkNanos(left);
		}
	}

	/**
	 * Withdraw an interrupted waiter, and answer the {@link InterruptedException} it
	 * throws, its interrupt flag cleared as that exception says. Only when the store
	 * could not be reached to withdraw it is its outcome unknown: then the store's
	 * failure is thrown instead, the interrupt suppressed in it.
	 * @param interrupt the interrupt that made the waiter give up
	 * @param boundNanoTime the waiter's bound as a {@link System#nanoTime()} reading
	 * @param withdrawal one call that withdraws the waiter, or gives back a grant handed
	 * to it meanwhile
	 * @return the interrupt, for the waiter to throw
	 * @throws LeaseHostException if the waiter could not be withdrawn
	 */
	public static InterruptedException giveUp(InterruptedException interrupt, long boundNanoTime, Runnable withdrawal) {
		LeaseHostException failed = withdraw(boundNanoTime, withdrawal);
		Thread.interrupted();
		if (failed != null) {
			failed.addSuppressed(interrupt);
			throw failed;
		}
		return interrupt;
	}

	/**
	 * Withdraw a waiter that got no answer from the store, so that it is not handed the
	 * key later, and answer the failure to throw, a failed withdrawal suppressed in it.
	 * @param failure the store's failure
	 * @param boundNanoTime the waiter's bound as a {@link System#nanoTime()} reading
	 * @param withdrawal one call that withdraws the waiter
	 * @return the failure, for the waiter to throw
	 */
	public static LeaseHostException failed(LeaseHostException failure, long boundNanoTime, Runnable withdrawal) {
		LeaseHostException failed = withdraw(boundNanoTime, withdrawal);
		if (failed != null && failed != failure) {
			failure.addSuppressed(failed);
		}
		return failure;
	}

}
