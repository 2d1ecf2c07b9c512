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

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import dev.lease.LeaseKey;

/**
 * The turns of this JVM's takes of one key at the database: one at a time, in the order
 * they came. The database serializes a key's questions anyway (its row lock, on
 * PostgreSQL its key lock), so a take that enters beside another would only hold a pool
 * connection while it waits for that lock: many takes of a hot key would hold the whole
 * pool, and a release, the question that frees the key, would wait behind them for a
 * connection. A take waits for its turn here instead, holding no connection and no
 * transaction, and the pool keeps connections for releases and for other keys.
 *
 * @author Lease contributors
 */
final class EntryTurns {

	private final ConcurrentHashMap<LeaseKey, Turn> turns = new ConcurrentHashMap<>();

	// Wait for the key's turn, run the entry, and pass the turn on. An interrupt while
	// waiting ends the wait: nothing was sent, so nothing stands for the take.
	<T> T inTurn(LeaseKey key, Supplier<T> entry) throws InterruptedException {
		Turn turn = this.turns.compute(key, (ignored, existing) -> {
			Turn joined = (existing != null) ? existing : new Turn();
			joined.users++;
			return joined;
		});
		try {
			turn.lock.lockInterruptibly();
			try {
				return entry.get();
			}
			finally {
				turn.lock.unlock();
			}
		}
		finally {
			this.turns.computeIfPresent(key, (ignored, existing) -> (--existing.users == 0) ? null : existing);
		}
	}

	/**
	 * One key's turns: fair, so in the order the takes came.
	 */
	private static final class Turn {

		private final ReentrantLock lock = new ReentrantLock(true);

		// Guarded by the map's lock of the key's entry.
		private int users;

	}

}
