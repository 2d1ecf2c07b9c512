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

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHostException;

/**
 * How a waiter that gives up leaves the queue, so that nothing is handed to a caller who
 * already answered, and nothing is left held by one who gave up (Host semantics).
 * <p>
 * The failure that makes a waiter give up often outlasts one call (a pool whose other
 * connections broke too, a database that refuses another connection, a reconnecting
 * client), so a withdrawal is not lost to it: it runs on the host's executor and is tried
 * again, on a fresh call, 50 ms after a failure, the pause doubling to a second, until it
 * has been written or it is needed no more: after its bound no release can hand the
 * waiter the key, and after its bound plus its duration no grant handed to it before can
 * stand. The caller waits for it while it is tried {@value #ATTEMPTS} times, and no
 * longer than {@link #PATIENCE}, so that it returns promptly however long the store keeps
 * a call waiting; a withdrawal not written by then goes on without it, and gives back a
 * grant handed to the waiter meanwhile once it is. A pending interrupt is put aside while
 * the caller waits, and set again.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class Withdrawals {

	/**
	 * How many times a withdrawal is tried while the caller waits for it.
	 */
	public static final int ATTEMPTS = 4;

	/**
	 * The longest a caller waits for its withdrawal to be written.
	 */
	public static final Duration PATIENCE = Duration.ofSeconds(2);

	/**
	 * How long past its bound a waiting take may answer when the host does not answer
	 * (Host semantics): its questions wait for an answer no longer than to its bound plus
	 * two thirds of this margin, the rest left for its own handling of the failure, and
	 * then it throws {@link LeaseHostException} while its withdrawal goes on.
	 */
	public static final Duration ANSWER_MARGIN = Duration.ofSeconds(3);

	// Questions are given up two thirds of the margin past the bound.
	private static final long QUESTION_MARGIN_NANOS = ANSWER_MARGIN.toNanos() * 2 / 3;

	private static final long FIRST_PAUSE_MILLIS = 50;

	private static final long LONGEST_PAUSE_MILLIS = 1_000;

	private Withdrawals() {
	}

	/**
	 * Return when a waiter's question must have been answered (Host: silence): two thirds
	 * of {@link #ANSWER_MARGIN} past its bound, the rest left for its own handling of the
	 * failure.
	 * @param boundNanoTime the waiter's bound as a {@link System#nanoTime()} reading
	 * @return the instant as a {@link System#nanoTime()} reading
	 */
	public static long answerBy(long boundNanoTime) {
		return boundNanoTime + QUESTION_MARGIN_NANOS;
	}

	/**
	 * Withdraw a waiter, trying again until it is written or needed no more, and wait for
	 * it while it is tried {@value #ATTEMPTS} times, for at most {@link #PATIENCE}.
	 * @param executor the host's executor for work that may block, on which the
	 * withdrawal is tried; a closed host's refuses it, and it is then tried once on the
	 * caller's thread
	 * @param boundNanoTime when a withdrawal is needed no more, as a
	 * {@link System#nanoTime()} reading: the waiter's bound plus its duration, when no
	 * grant handed to it can stand
	 * @param withdrawal one call that withdraws the waiter, or gives back a grant handed
	 * to it meanwhile, and throws {@link LeaseHostException} when the store could not be
	 * reached; it is made on another thread
	 * @return the last failure, or {@code null} once withdrawn; after a failure the
	 * withdrawal goes on until it is written or needed no more
	 */
	public static @Nullable LeaseHostException withdraw(Executor executor, long boundNanoTime, Runnable withdrawal) {
		return withdraw(executor, boundNanoTime, System.nanoTime() + PATIENCE.toNanos(), withdrawal);
	}

	private static @Nullable LeaseHostException withdraw(Executor executor, long boundNanoTime, long patienceEnds,
			Runnable withdrawal) {
		Withdrawal pending = new Withdrawal(boundNanoTime, patienceEnds, withdrawal);
		try {
			executor.execute(pending);
		}
		catch (RejectedExecutionException ex) {
			try {
				withdrawal.run();
				return null;
			}
			catch (LeaseHostException failure) {
				return failure;
			}
		}
		return pending.await();
	}

	/**
	 * Withdraw an interrupted waiter, and answer the {@link InterruptedException} it
	 * throws, its interrupt flag cleared as that exception says. Only when the withdrawal
	 * was not written while the waiter waited for it is its outcome unknown: then a
	 * {@link LeaseHostException} is thrown instead, caused by the interrupt, the store's
	 * failure suppressed in it, and the withdrawal goes on until it is written or needed
	 * no more.
	 * @param executor the host's executor for work that may block
	 * @param interrupt the interrupt that made the waiter give up
	 * @param boundNanoTime when a withdrawal is needed no more, as a
	 * {@link System#nanoTime()} reading: the waiter's bound plus its duration, when no
	 * grant handed to it can stand
	 * @param withdrawal one call that withdraws the waiter, or gives back a grant handed
	 * to it meanwhile
	 * @return the interrupt, for the waiter to throw
	 * @throws LeaseHostException if the waiter could not be withdrawn before it returns
	 */
	public static InterruptedException giveUp(Executor executor, InterruptedException interrupt, long boundNanoTime,
			Runnable withdrawal) {
		LeaseHostException failed = withdraw(executor, boundNanoTime, withdrawal);
		Thread.interrupted();
		if (failed != null) {
			LeaseHostException unknown = new LeaseHostException("Interrupted, and the waiter could not be withdrawn"
					+ " yet (" + failed.getMessage() + "): its withdrawal is tried again until it is written, when a"
					+ " grant handed to it meanwhile is given back, or it is needed no more", interrupt);
			unknown.addSuppressed(failed);
			throw unknown;
		}
		return interrupt;
	}

	/**
	 * Withdraw a waiter that got no answer from the store, so that it is not handed the
	 * key later, and answer the failure to throw, a failed withdrawal suppressed in it.
	 * @param executor the host's executor for work that may block
	 * @param failure the store's failure
	 * @param boundNanoTime when a withdrawal is needed no more, as a
	 * {@link System#nanoTime()} reading: the waiter's bound plus its duration, when no
	 * grant handed to it can stand
	 * @param withdrawal one call that withdraws the waiter
	 * @return the failure, for the waiter to throw
	 */
	public static LeaseHostException failed(Executor executor, LeaseHostException failure, long boundNanoTime,
			Runnable withdrawal) {
		return failed(executor, failure, boundNanoTime, System.nanoTime() + PATIENCE.toNanos(), withdrawal);
	}

	/**
	 * Withdraw a waiter that got no answer from the store, as
	 * {@link #failed(Executor, LeaseHostException, long, Runnable)} does, waiting for the
	 * withdrawal no later than the waiter must answer: past its bound plus
	 * {@link #ANSWER_MARGIN}, it goes on without the waiter.
	 * @param executor the host's executor for work that may block
	 * @param failure the store's failure
	 * @param boundNanoTime when a withdrawal is needed no more, as a
	 * {@link System#nanoTime()} reading: the waiter's bound plus its duration, when no
	 * grant handed to it can stand
	 * @param answerByNanoTime the latest the waiter answers, as a
	 * {@link System#nanoTime()} reading
	 * @param withdrawal one call that withdraws the waiter
	 * @return the failure, for the waiter to throw
	 */
	public static LeaseHostException failed(Executor executor, LeaseHostException failure, long boundNanoTime,
			long answerByNanoTime, Runnable withdrawal) {
		long patienceEnds = Math.min(System.nanoTime() + PATIENCE.toNanos(), answerByNanoTime);
		LeaseHostException failed = withdraw(executor, boundNanoTime, patienceEnds, withdrawal);
		if (failed != null && failed != failure) {
			failure.addSuppressed(failed);
		}
		return failure;
	}

	/**
	 * Return the pause after a withdrawal's failed attempt: 50 ms after the first,
	 * doubling to a second.
	 * @param attempt the attempt that failed, from 1
	 * @return the pause in nanoseconds
	 */
	public static long pauseNanos(int attempt) {
		return TimeUnit.MILLISECONDS
			.toNanos(Math.min(FIRST_PAUSE_MILLIS << Math.min(attempt - 1, 10), LONGEST_PAUSE_MILLIS));
	}

	/**
	 * One withdrawal, tried on its own thread until written or past the bound, and what
	 * its caller learns of it.
	 */
	private static final class Withdrawal implements Runnable {

		private final long boundNanoTime;

		private final Runnable withdrawal;

		private final long patienceEnds;

		private final ReentrantLock lock = new ReentrantLock();

		private final Condition changed = this.lock.newCondition();

		private boolean written;

		private boolean over;

		private int failures;

		private @Nullable LeaseHostException lastFailure;

		private @Nullable RuntimeException unexpected;

		Withdrawal(long boundNanoTime, long patienceEnds, Runnable withdrawal) {
			this.boundNanoTime = boundNanoTime;
			this.patienceEnds = patienceEnds;
			this.withdrawal = withdrawal;
		}

		@Override
		public void run() {
			for (int attempt = 1;; attempt++) {
				try {
					this.withdrawal.run();
					settle(true, null, null);
					return;
				}
				catch (LeaseHostException ex) {
					boolean boundPassed = System.nanoTime() - this.boundNanoTime > 0;
					settle(false, ex, null);
					if (boundPassed || Thread.currentThread().isInterrupted()) {
						return;
					}
				}
				catch (RuntimeException ex) {
					// Not the store's failure: the caller throws it, and nothing is
					// retried.
					settle(false, null, ex);
					return;
				}
				try {
					TimeUnit.NANOSECONDS.sleep(pauseNanos(attempt));
				}
				catch (InterruptedException ex) {
					// the host closed: the interrupt ends the withdrawal at its next
					// failure
					Thread.currentThread().interrupt();
				}
			}
		}

		private void settle(boolean written, @Nullable LeaseHostException failure,
				@Nullable RuntimeException unexpected) {
			this.lock.lock();
			try {
				if (failure != null) {
					this.lastFailure = failure;
					this.failures++;
					this.over = System.nanoTime() - this.boundNanoTime > 0;
				}
				this.written = written;
				this.unexpected = unexpected;
				this.over |= written || unexpected != null;
				this.changed.signalAll();
			}
			finally {
				this.lock.unlock();
			}
		}

		// The caller's wait: until written, past the bound, tried ATTEMPTS times, or out
		// of patience, whichever comes first.
		@Nullable LeaseHostException await() {
			boolean interrupted = Thread.interrupted();
			this.lock.lock();
			try {
				long left = this.patienceEnds - System.nanoTime();
				while (!this.over && this.failures < ATTEMPTS && left > 0) {
					try {
						left = this.changed.awaitNanos(left);
					}
					catch (InterruptedException ex) {
						interrupted = true;
						left = this.patienceEnds - System.nanoTime();
					}
				}
				if (this.unexpected != null) {
					throw this.unexpected;
				}
				if (this.written) {
					return null;
				}
				return (this.lastFailure != null) ? this.lastFailure
						: new LeaseHostException("The store did not answer the withdrawal within " + PATIENCE);
			}
			finally {
				this.lock.unlock();
				if (interrupted) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

}
