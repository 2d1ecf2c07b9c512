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

package dev.lease.host.inmemory;

import java.time.Instant;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.host.KeyModel;
import dev.lease.host.TakeAnswer;
import dev.lease.host.TakeAnswer.Refused;
import dev.lease.host.WaiterStore;

/**
 * A queued take's questions for the host kit's {@link dev.lease.host.WaiterMachine}, a
 * blocking take's and those the non-blocking view answers at once, each one step of the
 * key's model under its lock; its key's state stays stored while it is queued. A
 * withdrawal is written at once, on the waiter's thread: memory never fails to answer.
 *
 * @param host the host
 * @param state the key's state
 * @param holder the holder waiting
 * @param waiterId the waiter's id in the key's queue
 * @author Lease contributors
 */
record SleepingWaiter(InMemoryLeaseHost host, KeyState state, LeaseHolder holder,
		long waiterId) implements WaiterStore {

	@Override
	public TakeAnswer ask(boolean atBound, long answerBy) {
		return ask(false);
	}

	@Override
	public void withdraw() {
		ask(true);
	}

	private TakeAnswer ask(boolean givingUp) {
		this.state.lock.lock();
		try {
			KeyModel model = this.state.model();
			TakeAnswer answer = model.ask(this.waiterId, this.holder, this.state.handedTo(this.waiterId),
					model.now(this.host.reading()), givingUp);
			this.state.save(model);
			// A grant answered is kept for the waiter until it takes it up, as the other
			// hosts keep it: a withdrawal that comes after the answer, such as a
			// non-blocking
			// take's cancel, finds it and gives it back.
			if (givingUp || answer instanceof Refused) {
				this.state.forget(this.waiterId);
			}
			return answer;
		}
		finally {
			this.host.unlock(this.state);
		}
	}

	// The grant, named by a wake-up or answered, is the waiter's: nothing is kept for it
	// any more.
	@Override
	public TakeResult taken(Instant expiresAt, boolean handed) {
		this.state.lock.lock();
		try {
			this.state.forget(this.waiterId);
		}
		finally {
			this.host.unlock(this.state);
		}
		return new Taken(new Lease(this.state.key, this.holder, expiresAt));
	}

	// A non-blocking waiter's grant that its answer came too late for: given back if it
	// still stands.
	void giveBack(long expiresAt) {
		this.host.write(this.state.key, (model) -> {
			long now = model.now(this.host.reading());
			model.resolve(now);
			return this.holder.equals(model.holder()) && model.expiresAt() == expiresAt
					&& model.release(this.holder, now);
		});
	}

}
