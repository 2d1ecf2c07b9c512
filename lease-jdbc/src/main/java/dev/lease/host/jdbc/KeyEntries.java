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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.host.GaveUp;
import dev.lease.host.TakeAnswer;

/**
 * This JVM's takes of one key that may queue, entered into the database together: while
 * one transaction enters some, those that come meanwhile wait (holding no connection) and
 * enter in the next, in the order they came. The database serializes a key's questions
 * anyway, so a crowd of takes of one hot key costs a transaction or two and one pool
 * connection, not a connection each waiting for the key's lock, and a release is never
 * queued behind them for a connection; a take waits for at most the transaction in flight
 * before its own.
 * <p>
 * The take whose transaction comes next runs it on its own thread; a take that gives up
 * before its transaction was sent (an interrupt) leaves the line, and one whose
 * transaction could not get a connection because its thread was interrupted puts the
 * others back in their places for the next to run. A transaction that could not get a
 * connection because the pool had lent every one past its timeout sent nothing either:
 * its takes go back to their places and it is run again, each take waiting so within its
 * own term, so that the pool's timeout does not fail a crowd that a busy pool delays.
 *
 * @author Lease contributors
 */
final class KeyEntries {

	// A cap on one transaction's rows, so that its locks are held briefly.
	private static final int MOST_PER_TRANSACTION = 256;

	// Between a pool's timeouts, so that a pool that does not wait is not asked in a
	// loop.
	private static final long POOL_RETRY_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private final JdbcLeaseStore store;

	private final StoreInterrupts interrupts;

	private final ConcurrentHashMap<LeaseKey, Line> lines = new ConcurrentHashMap<>();

	KeyEntries(JdbcLeaseStore store, StoreInterrupts interrupts) {
		this.store = store;
		this.interrupts = interrupts;
	}

	/**
	 * Enter a take that may queue: the store's answer, as
	 * {@link JdbcLeaseStore#enter(LeaseKey, LeaseHolder, long, boolean, java.util.function.LongSupplier)}
	 * gives it.
	 * @param key the key
	 * @param entry the take
	 * @return the store's answer
	 * @throws GaveUp when interrupted before anything was sent for it
	 */
	TakeAnswer enter(LeaseKey key, Entry entry) {
		Turn turn = new Turn(entry);
		// A key has a line while a take of it enters or waits to: the first to find
		// none leads.
		this.lines.compute(key, (k, current) -> {
			Line line = (current != null) ? current : new Line();
			if (current == null) {
				turn.state = Turn.LEADS;
			}
			line.waiting.add(turn);
			return line;
		});
		boolean interrupted = false;
		try {
			while (true) {
				int state = turn.state;
				if (state == Turn.ANSWERED) {
					return turn.answer().get();
				}
				// Also once a transaction that could not get a connection put it back:
				// nothing was sent for it.
				if (interrupted && state != Turn.SENT && leave(key, turn)) {
					throw new GaveUp("a database connection");
				}
				if (state == Turn.LEADS) {
					return lead(key, turn);
				}
				LockSupport.park(this);
				interrupted |= Thread.interrupted();
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	// Run the next transaction for the takes waiting, this one first among them. While
	// the pool has no connection to lend, the takes wait for one within their own term,
	// not only the pool's timeout, back in their places so that an interrupted one can
	// still leave and later ones join.
	private TakeAnswer lead(LeaseKey key, Turn leader) {
		while (true) {
			List<Turn> sent = next(key);
			List<Entry> entries = new ArrayList<>(sent.size());
			sent.forEach((turn) -> entries.add(turn.entry));
			try {
				List<Answer> answers = this.interrupts.givingUp(() -> this.store.enterAll(key, entries));
				for (int i = 0; i < sent.size(); i++) {
					sent.get(i).answered(answers.get(i));
				}
			}
			catch (GaveUp ex) {
				// Nothing was sent: the others go back to their places, and the next
				// leads.
				putBack(key, sent.subList(1, sent.size()), false);
				passOn(key);
				throw ex;
			}
			catch (RuntimeException ex) {
				Answer failed = new Answer(null, ex);
				if (!JdbcLeaseCalls.poolBusy(ex)) {
					// Undone whole: each of them meets the failure.
					sent.forEach((turn) -> turn.answered(failed));
				}
				else if (waitAgain(key, leader, sent, failed)) {
					continue;
				}
			}
			passOn(key);
			return leader.answer().get();
		}
	}

	// The takes of the next transaction, taken from the head of the line.
	private List<Turn> next(LeaseKey key) {
		List<Turn> sent = new ArrayList<>();
		this.lines.computeIfPresent(key, (k, line) -> {
			while (!line.waiting.isEmpty() && sent.size() < MOST_PER_TRANSACTION) {
				Turn turn = line.waiting.poll();
				turn.state = Turn.SENT;
				sent.add(turn);
			}
			return line;
		});
		return sent;
	}

	// The pool lent no connection and nothing was sent: the takes whose term has passed
	// meet its failure, the others go back to their places. Whether the leader leads
	// again, after a pause, unless interrupted meanwhile (it then gives up).
	private boolean waitAgain(LeaseKey key, Turn leader, List<Turn> sent, Answer failed) {
		long now = System.nanoTime();
		List<Turn> waiting = new ArrayList<>(sent.size());
		for (Turn turn : sent) {
			// A take whose term, counted from when it came, has passed stops waiting for
			// a connection to enter.
			if (now - turn.arrived >= TimeUnit.MICROSECONDS.toNanos(turn.entry.durationMicros())) {
				turn.answered(failed);
			}
			else {
				waiting.add(turn);
			}
		}
		boolean leads = leader.state != Turn.ANSWERED;
		putBack(key, waiting, leads);
		if (!leads) {
			return false;
		}
		LockSupport.parkNanos(this, POOL_RETRY_PAUSE_NANOS);
		// The interrupt stays set for the caller, whether it leaves or leads again.
		if (Thread.currentThread().isInterrupted() && leave(key, leader)) {
			throw new GaveUp("a database connection");
		}
		return true;
	}

	// Takes for which nothing was sent go back to the head of the line, in their order,
	// the first leading again where it led; woken, so that one interrupted meanwhile
	// leaves.
	private void putBack(LeaseKey key, List<Turn> turns, boolean firstLeads) {
		this.lines.computeIfPresent(key, (k, line) -> {
			for (int i = turns.size() - 1; i >= 0; i--) {
				Turn turn = turns.get(i);
				turn.state = (i == 0 && firstLeads) ? Turn.LEADS : Turn.WAITS;
				line.waiting.addFirst(turn);
			}
			return line;
		});
		turns.forEach((turn) -> LockSupport.unpark(turn.thread));
	}

	// The next waiting take runs the next transaction; with none, the line closes.
	private void passOn(LeaseKey key) {
		this.lines.computeIfPresent(key, (k, line) -> line.passOn());
	}

	// Leave the line if nothing was sent for the take yet: whether it left.
	private boolean leave(LeaseKey key, Turn turn) {
		boolean[] left = new boolean[1];
		this.lines.computeIfPresent(key, (k, line) -> {
			if (turn.state != Turn.SENT && turn.state != Turn.ANSWERED && line.waiting.remove(turn)) {
				left[0] = true;
				if (turn.state == Turn.LEADS) {
					return line.passOn();
				}
			}
			return line;
		});
		return left[0];
	}

	/**
	 * One take to enter.
	 *
	 * @param holder the party taking the key
	 * @param durationMicros its duration
	 * @param waiterId the id it waits under, registered for its wake-ups before it enters
	 */
	record Entry(LeaseHolder holder, long durationMicros, long waiterId) {
	}

	/**
	 * One take's answer, or the failure it alone met, or the failure of its transaction.
	 *
	 * @param answer the store's answer
	 * @param failure the failure
	 */
	record Answer(@Nullable TakeAnswer answer, @Nullable RuntimeException failure) {

		// A take the state model refuses (a reentrant take) fails alone.
		static Answer of(Supplier<TakeAnswer> question) {
			try {
				return new Answer(question.get(), null);
			}
			catch (ReentrantTakeException ex) {
				return new Answer(null, ex);
			}
		}

		TakeAnswer get() {
			RuntimeException failure = this.failure;
			if (failure != null) {
				throw failure;
			}
			TakeAnswer answer = this.answer;
			if (answer == null) {
				throw new IllegalStateException("A take was entered without an answer");
			}
			return answer;
		}

	}

	/**
	 * A key's line: the takes waiting to enter, one of which leads. Changed only inside
	 * the map's compute, which serializes it.
	 */
	private static final class Line {

		final ArrayDeque<Turn> waiting = new ArrayDeque<>();

		// The next waiting take leads; with none, the line closes: answers null, for the
		// map's compute to remove it.
		@Nullable Line passOn() {
			Turn next = this.waiting.peek();
			if (next == null) {
				return null;
			}
			next.state = Turn.LEADS;
			LockSupport.unpark(next.thread);
			return this;
		}

	}

	/**
	 * A take in the line, parked on its own thread until answered or its turn to lead.
	 */
	private static final class Turn {

		static final int WAITS = 0;

		static final int LEADS = 1;

		static final int SENT = 2;

		static final int ANSWERED = 3;

		final Entry entry;

		final Thread thread = Thread.currentThread();

		// When it came, on this JVM's timer: it waits for a connection within its term.
		final long arrived = System.nanoTime();

		volatile int state = WAITS;

		private volatile @Nullable Answer answer;

		Turn(Entry entry) {
			this.entry = entry;
		}

		void answered(Answer answer) {
			this.answer = answer;
			this.state = ANSWERED;
			LockSupport.unpark(this.thread);
		}

		Answer answer() {
			Answer answer = this.answer;
			if (answer == null) {
				throw new IllegalStateException("A take's turn ended without an answer");
			}
			return answer;
		}

	}

}
