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
import java.util.Queue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHostException;
import dev.lease.TakeResult;
import dev.lease.Unavailable;
import dev.lease.host.WaiterMachine.Action;
import dev.lease.host.WaiterMachine.Ask;
import dev.lease.host.WaiterMachine.Poll;
import dev.lease.host.WaiterMachine.Sleep;
import dev.lease.host.WaiterMachine.Take;

/**
 * Drives one non-blocking take through a {@link WaiterMachine} without holding a thread:
 * each step (an answer come in, a wake-up of its signal, its timer) runs on the host's
 * scheduler, one step of the take at a time in the order they came, so that the take's
 * state is touched by one thread at a time on a scheduler of any size. A wake-up while a
 * question is out is read once the answer is in.
 * <p>
 * The future completed by anyone but this take (cancelled) before it answered withdraws
 * the waiter at once, on the cancelling thread, so that the store runs the withdrawal
 * after the take's own question where the host sends both on one connection; it is tried
 * again as a blocking waiter's is ({@link Withdrawals#pauseNanos(int)}) until it is
 * written or needed no more. A grant the future can no longer take is given back: one
 * give-back site for every non-blocking take.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class ScheduledWaiter {

	private final Wakeups.Signal<?> signal;

	private final WaiterMachine machine;

	private final Questions store;

	private final Timer steps;

	private final Runnable unregister;

	private final CompletableFuture<TakeResult> answer = new CompletableFuture<>();

	private boolean entered;

	private boolean asking;

	private boolean done;

	// Set by this take before it completes the future, so that a completion by anyone
	// else (read on their thread) is told apart.
	private volatile boolean answering;

	private @Nullable ScheduledFuture<?> wakeUp;

	// The steps not run yet, and whether one is running or submitted to run them.
	private final Queue<Runnable> pending = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean stepping = new AtomicBoolean();

	/**
	 * Create the driver of one take.
	 * @param signal the waiter's wake-ups, registered before its first question
	 * @param machine the waiter's machine
	 * @param store the store's questions for this waiter
	 * @param steps the host's scheduler, on which every step runs, one at a time
	 * @param unregister unregisters the waiter's signal when it leaves
	 */
	public ScheduledWaiter(Wakeups.Signal<?> signal, WaiterMachine machine, Questions store, Timer steps,
			Runnable unregister) {
		this.signal = signal;
		this.machine = machine;
		this.store = store;
		this.steps = steps;
		this.unregister = unregister;
	}

	/**
	 * Return the take's answer, which the caller may cancel.
	 * @return the future answer
	 */
	public CompletableFuture<TakeResult> answer() {
		return this.answer;
	}

	/**
	 * Send the take's first question, the one that grants or queues it, from the caller's
	 * thread, so that takes arrive in the order they were made.
	 * @param enter the first question; it fails with the take's failure, such as a
	 * reentrant take
	 */
	public void start(CompletionStage<TakeAnswer> enter) {
		this.asking = true;
		this.signal.onWake(() -> step(this::decide));
		this.answer.whenComplete((result, failure) -> {
			// A cancel that wins against this take's own answer, already on its way,
			// withdraws too: a grant kept for the waiter is given back before cancel
			// returns.
			if (!this.answering || failure instanceof CancellationException) {
				withdraw(1);
			}
			step(this::leave);
		});
		enter.whenComplete((answered, failure) -> step(() -> entered(answered, failure)));
	}

	private void entered(@Nullable TakeAnswer answered, @Nullable Throwable failure) {
		this.asking = false;
		if (answered instanceof TakeAnswer.Granted granted) {
			taken(Micros.toInstant(granted.expiresAt()), false);
		}
		else if (answered instanceof TakeAnswer.Queued queued) {
			this.entered = true;
			if (this.done) {
				// Cancelled while the take was out, which may have been sent again after
				// the withdrawal (a slot that moved): withdraw again.
				withdraw(1);
				return;
			}
			act(this.machine.entered(queued, System.nanoTime()));
		}
		else {
			finish(null, (failure != null) ? failure : new LeaseHostException("A take that may queue was refused"));
		}
	}

	private void decide() {
		if (!this.done && !this.asking && this.entered) {
			act(this.machine.woken(System.nanoTime()));
		}
	}

	private void act(Action action) {
		cancelWakeUp();
		if (action instanceof Sleep sleep) {
			try {
				this.wakeUp = this.steps.schedule(() -> step(this::decide),
						Math.max(0, sleep.until() - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException ex) {
				closed();
			}
		}
		else if (action instanceof Ask ask) {
			this.asking = true;
			this.store.ask(ask.atBound(), ask.answerBy())
				.whenComplete((answered, failure) -> step(() -> asked(answered, failure, ask.atBound())));
		}
		else if (action instanceof Poll) {
			// A host that polls waits on threads; no poll is ever late here.
			act(this.machine.polled(false, System.nanoTime()));
		}
		else if (action instanceof Take take) {
			taken(take.expiresAt(), take.handed());
		}
		else {
			finish(new Unavailable(), null);
		}
	}

	private void asked(@Nullable TakeAnswer answered, @Nullable Throwable failure, boolean atBound) {
		this.asking = false;
		if (this.done) {
			// Cancelled while asking: the withdrawal sent then gives back a grant this
			// question saw handed, unless this question, the last, took it up.
			if (atBound && answered instanceof TakeAnswer.Granted) {
				this.store.giveBack();
			}
			return;
		}
		if (answered == null) {
			// A caller that gets no answer must not be handed the key later.
			withdraw(1);
			finish(null, failure);
			return;
		}
		act(this.machine.answered(answered, System.nanoTime()));
	}

	// Nothing else is decided while the grant is answered: a wake-up meanwhile would
	// take it a second time, and give it back as a grant nobody takes.
	private void taken(Instant expiresAt, boolean handed) {
		this.asking = true;
		this.store.taken(expiresAt, handed).whenComplete((result, failure) -> step(() -> finish(result, failure)));
	}

	// The host's answer; a grant the future no longer takes is given back.
	private void finish(@Nullable TakeResult result, @Nullable Throwable failure) {
		leave();
		this.answering = true;
		boolean completed = (result != null) ? this.answer.complete(result)
				: this.answer.completeExceptionally(unwrap(failure));
		if (!completed && result instanceof dev.lease.Taken) {
			this.store.giveBack();
		}
	}

	private void leave() {
		if (this.done) {
			return;
		}
		this.done = true;
		cancelWakeUp();
		this.signal.onWake(null);
		this.unregister.run();
	}

	// Withdraw the waiter, tried again while it is needed. Reads only final fields, as
	// it is sent from the cancelling thread too; a failure is read on the take's thread,
	// which knows the bound.
	private void withdraw(int attempt) {
		this.store.withdraw().whenComplete((withdrawn, failure) -> {
			if (failure != null) {
				step(() -> withdrawAgain(attempt));
			}
		});
	}

	private void withdrawAgain(int attempt) {
		if (this.entered && System.nanoTime() - this.machine.neededUntil() < 0) {
			try {
				this.steps.schedule(() -> withdraw(attempt + 1), Withdrawals.pauseNanos(attempt), TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException ex) {
				// closed: the withdrawal is given up with the host
			}
		}
	}

	private void cancelWakeUp() {
		ScheduledFuture<?> wakeUp = this.wakeUp;
		if (wakeUp != null) {
			wakeUp.cancel(false);
			this.wakeUp = null;
		}
	}

	// Run a step after the take's earlier ones, on the scheduler; a closed host fails
	// the take.
	private void step(Runnable step) {
		this.pending.add(step);
		if (this.stepping.compareAndSet(false, true)) {
			try {
				this.steps.schedule(this::runSteps, 0, TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException ex) {
				this.pending.clear();
				this.stepping.set(false);
				closed();
			}
		}
	}

	private void runSteps() {
		do {
			for (Runnable step = this.pending.poll(); step != null; step = this.pending.poll()) {
				step.run();
			}
			this.stepping.set(false);
		}
		while (!this.pending.isEmpty() && this.stepping.compareAndSet(false, true));
	}

	private void closed() {
		this.answering = true;
		this.answer.completeExceptionally(new LeaseHostException("The lease host is closed"));
	}

	private static Throwable unwrap(@Nullable Throwable failure) {
		if (failure instanceof CompletionException && failure.getCause() != null) {
			return failure.getCause();
		}
		return (failure != null) ? failure : new LeaseHostException("The take answered nothing");
	}

	/**
	 * Where a take's steps and timers run: the host's scheduler, such as
	 * {@code ScheduledExecutorService::schedule} or {@link HostThreads#schedule}, which
	 * cancels them when the host closes.
	 */
	@FunctionalInterface
	public interface Timer {

		/**
		 * Run a task after a delay.
		 * @param task the task
		 * @param delay the delay, 0 to run it as soon as a thread is free
		 * @param unit the delay's unit
		 * @return the scheduled task
		 * @throws RejectedExecutionException if the host is closed
		 */
		ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit);

	}

	/**
	 * The store's questions for one non-blocking waiter, each answered without blocking
	 * the thread that asks.
	 */
	public interface Questions {

		/**
		 * Ask where the waiter stands, as {@link WaiterStore#ask(boolean, long)} does.
		 * @param atBound whether its bound has passed
		 * @param answerBy when the store must have answered
		 * @return the answer, or the store's failure
		 */
		CompletionStage<TakeAnswer> ask(boolean atBound, long answerBy);

		/**
		 * Withdraw the waiter, a grant handed to it meanwhile given back; sent at once
		 * from the calling thread, which may be the caller's that cancelled.
		 * @return done, or the store's failure
		 */
		CompletionStage<?> withdraw();

		/**
		 * Answer the grant the waiter was given, as
		 * {@link WaiterStore#taken(Instant, boolean)} does, without blocking.
		 * @param expiresAt the grant's instant
		 * @param handed whether a wake-up named the waiter
		 * @return the take's result
		 */
		CompletionStage<TakeResult> taken(Instant expiresAt, boolean handed);

		/**
		 * Give back the grant, which nobody takes.
		 */
		void giveBack();

	}

}
