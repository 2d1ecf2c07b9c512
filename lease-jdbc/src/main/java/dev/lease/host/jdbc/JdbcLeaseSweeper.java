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

package dev.lease.host.jdbc;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.lease.LeaseKey;
import dev.lease.host.HostThreads;
import dev.lease.host.KeyModel;

/**
 * Garbage collection: rows of passed grants with nobody queued, grants handed to waiters
 * that can no longer come back for them, and keys whose passed grant still has a queue
 * behind it. Removing them changes no answer (State 2, 3): what is removed reads as free,
 * or is resolved identically by the next question. It runs on the host's scheduler every
 * interval, so that rows go with no caller at all; with no interval, callers run it as
 * part of their takes, at most once a second per host.
 *
 * @author Lease contributors
 */
final class JdbcLeaseSweeper {

	private static final Log logger = LogFactory.getLog(JdbcLeaseSweeper.class);

	private static final long CALLER_SWEEP_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

	// How long past its bound a grant handed to a waiter is kept, at the least, for a
	// waiter that stalled (Operation 2: it did get the key): the one window of every
	// host.
	private static final long HANDED_GRACE_MICROS = KeyModel.HANDED_KEPT_MICROS;

	private static final int KEYS_PER_SWEEP = 16;

	private final JdbcLeaseStore store;

	private final @Nullable ScheduledFuture<?> schedule;

	private static final Duration ANSWER_WITHIN = Duration.ofSeconds(5);

	private final AtomicLong nextSweep = new AtomicLong(System.nanoTime());

	JdbcLeaseSweeper(JdbcLeaseStore store, Duration interval, HostThreads threads) {
		this.store = store;
		long nanos = interval.toNanos();
		this.schedule = interval.isZero() ? null : threads.scheduleWithFixedDelay(() -> sweep("at the next interval"),
				nanos, nanos, TimeUnit.NANOSECONDS);
	}

	// Called after each take: sweeps when no schedule does, at most once a second.
	void sweepNowAndThen() {
		if (this.schedule != null) {
			return;
		}
		long due = this.nextSweep.get();
		long nanos = System.nanoTime();
		if (nanos - due < 0 || !this.nextSweep.compareAndSet(due, nanos + CALLER_SWEEP_INTERVAL_NANOS)) {
			return;
		}
		sweep("with a later question");
	}

	// A failure must not end the schedule: the next run, or the next question, tries
	// again. Answered within ANSWER_WITHIN or failed (AnswerDeadline): a database that
	// stops answering does not hang the clean-up, nor the host's close behind it.
	private void sweep(String again) {
		try {
			this.store.calls.answeringBy(System.nanoTime() + ANSWER_WITHIN.toNanos(), () -> {
				JdbcLeaseStatements statements = this.store.statements;
				List<byte[]> keys = this.store.calls.transaction("clean up", null, (tx) -> {
					tx.update(statements.deleteFreeKeys);
					tx.update(statements.deleteStaleHandedWaiters, HANDED_GRACE_MICROS, HANDED_GRACE_MICROS);
					return tx.queryRows(statements.selectKeysToResolve, KEYS_PER_SWEEP, KeyRow.KEY);
				});
				for (byte[] keyBytes : keys) {
					this.store.resolve(LeaseKey.of(keyBytes));
				}
				return keys;
			});
		}
		catch (RuntimeException ex) {
			logger.debug("Lease clean-up failed; it runs again " + again, ex);
		}
	}

	// Stop the schedule; a run under way is interrupted, and answers within
	// ANSWER_WITHIN at the latest.
	void close() {
		if (this.schedule != null) {
			this.schedule.cancel(true);
		}
	}

}
