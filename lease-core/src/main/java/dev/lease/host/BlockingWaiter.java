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

import java.util.concurrent.Executor;

import dev.lease.LeaseHostException;
import dev.lease.TakeResult;
import dev.lease.Unavailable;
import dev.lease.host.WaiterMachine.Action;
import dev.lease.host.WaiterMachine.Ask;
import dev.lease.host.WaiterMachine.Poll;
import dev.lease.host.WaiterMachine.Sleep;
import dev.lease.host.WaiterMachine.Take;

/**
 * Drives a {@link WaiterMachine} on the caller's thread, which sleeps on the waiter's
 * {@link Wakeups.Signal}. A waiter that gives up leaves the queue one way, through
 * {@link Withdrawals}: interrupted (while it sleeps, or before a question was sent) it
 * withdraws and throws {@link InterruptedException}; given no answer it withdraws and
 * throws the store's {@link LeaseHostException}.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class BlockingWaiter {

	private BlockingWaiter() {
	}

	/**
	 * Wait for the key from the answer that queued the waiter.
	 * @param signal the waiter's wake-ups, registered before its first question
	 * @param machine the waiter's machine
	 * @param queued the answer that queued it
	 * @param store the store's questions for this waiter
	 * @param executor the host's executor for work that may block, on which withdrawals
	 * are tried
	 * @return the take's result
	 * @throws InterruptedException if interrupted, once withdrawn
	 */
	public static TakeResult await(Wakeups.Signal<?> signal, WaiterMachine machine, TakeAnswer.Queued queued,
			WaiterStore store, Executor executor) throws InterruptedException {
		Action action = machine.entered(queued, System.nanoTime());
		while (true) {
			if (action instanceof Sleep sleep) {
				try {
					signal.await(sleep.until() - System.nanoTime());
				}
				catch (InterruptedException ex) {
					throw Withdrawals.giveUp(executor, ex, machine.neededUntil(), store::withdraw);
				}
				action = machine.woken(System.nanoTime());
			}
			else if (action instanceof Poll poll) {
				boolean woke;
				try {
					woke = store.poll(poll.answerBy());
				}
				catch (GaveUp ex) {
					throw Withdrawals.giveUp(executor, ex.interrupt(), machine.neededUntil(), store::withdraw);
				}
				catch (LeaseHostException ex) {
					woke = false;
				}
				action = machine.polled(woke, System.nanoTime());
			}
			else if (action instanceof Ask ask) {
				TakeAnswer answer;
				try {
					answer = store.ask(ask.atBound(), ask.answerBy());
				}
				catch (GaveUp ex) {
					throw Withdrawals.giveUp(executor, ex.interrupt(), machine.neededUntil(), store::withdraw);
				}
				catch (LeaseHostException ex) {
					// A caller that gets no answer must not be handed the key later.
					throw Withdrawals.failed(executor, ex, machine.neededUntil(), ask.answerBy(), store::withdraw);
				}
				action = machine.answered(answer, System.nanoTime());
			}
			else if (action instanceof Take take) {
				return store.taken(take.expiresAt(), take.handed());
			}
			else {
				return new Unavailable();
			}
		}
	}

}
