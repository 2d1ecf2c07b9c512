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

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A connection borrowed by an instant from a pool that cannot be told how long to wait
 * (Host: silence): Jedis's pool and most JDBC pools other than Hikari lend with no time
 * limit by default, so a waiter whose store went silent would wait for a connection past
 * its bound. The borrow runs on a lender thread while the caller waits for it until the
 * instant; a connection lent after the caller gave up (at the instant, or at an
 * interrupt) is given straight back. Nothing was sent either way, so a caller that gives
 * up may answer as before it asked. Lenders run on the host's executor for work that may
 * block ({@link HostThreads}), which stops them when the host closes.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class TimedBorrow {

	private final Executor lenders;

	/**
	 * Create an instance.
	 * @param lenders the host's executor for work that may block, which must start a
	 * borrow without waiting for another to end
	 */
	public TimedBorrow(Executor lenders) {
		this.lenders = lenders;
	}

	/**
	 * Borrow a connection, waiting for it no later than the instant.
	 * @param <C> the connection
	 * @param answerByNanos a {@link System#nanoTime()} reading
	 * @param borrow borrows the connection, waiting as the pool is set to
	 * @param giveBack gives back a connection lent after the caller gave up
	 * @return the connection
	 * @throws TimeoutException if none was lent by the instant
	 * @throws InterruptedException if the caller was interrupted first
	 * @throws Exception the borrow's own failure
	 */
	public <C> C borrow(long answerByNanos, Callable<C> borrow, Consumer<? super C> giveBack) throws Exception {
		CompletableFuture<C> lent = new CompletableFuture<>();
		try {
			this.lenders.execute(() -> {
				try {
					lent.complete(borrow.call());
				}
				catch (Throwable ex) {
					lent.completeExceptionally(ex);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			// the host is closing: its caller waits as the pool lends
			return borrow.call();
		}
		try {
			return lent.get(Math.max(0, answerByNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException | InterruptedException ex) {
			lent.thenAccept(giveBack);
			if (ex instanceof TimeoutException) {
				throw new TimeoutException("No connection was lent by the waiter's bound plus the answer margin");
			}
			throw ex;
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
	}

	/**
	 * Give a connection back off the caller's thread: a pool that discards a broken
	 * connection may open its replacement on the returning thread, for the borrowers
	 * waiting, and a new connection's first commands wait for a silent server.
	 * @param giveBack gives the connection back
	 */
	public void giveBack(Runnable giveBack) {
		try {
			this.lenders.execute(giveBack);
		}
		catch (RejectedExecutionException ex) {
			giveBack.run();
		}
	}

}
