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

import java.util.Optional;

import dev.lease.LeaseKey;
import dev.lease.QueuedTakes;
import dev.lease.host.HostArguments;

/**
 * The in-memory host's answer to how many takes wait for a key: the key's queue, read
 * under the key's lock as the state model derives it at the host's now, and nothing saved
 * but the clock reading, as for the standing grant (Check 5.2), with the instant the
 * longest-waiting take was queued at.
 *
 * @author Lease contributors
 */
final class InMemoryWaiting {

	private InMemoryWaiting() {
	}

	static Optional<QueuedTakes> read(InMemoryLeaseHost host, LeaseKey key) {
		HostArguments.requireKey(key);
		return Optional.of(host.read(key, (state, model) -> {
			int stored = model.queued();
			long now = model.now(host.reading());
			// Resolving takes waiters from the head only: those a passed grant handed the
			// key to, and those dropped on the way, are the first stored - queued.
			model.resolve(now);
			return Optional.of(state.waitingAfter(stored - model.queued(), now));
		}).orElse(QueuedTakes.NONE));
	}

}
