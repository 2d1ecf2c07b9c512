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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * This JVM's waiters of one key, by name, in the order they registered; the first is the
 * key's delegate ({@link Wakeups}).
 *
 * @param <W> how the host names a waiter
 * @author Lease contributors
 */
final class KeyWaiters<W> {

	private final Map<W, Wakeups.Signal<W>> byName = new LinkedHashMap<>();

	synchronized void add(Wakeups.Signal<W> signal) {
		this.byName.put(signal.waiter, signal);
		if (this.byName.size() == 1) {
			signal.delegate = true;
		}
	}

	synchronized Wakeups.@Nullable Signal<W> get(W waiter) {
		return this.byName.get(waiter);
	}

	synchronized List<Wakeups.Signal<W>> all() {
		return new ArrayList<>(this.byName.values());
	}

	synchronized void askDelegate() {
		delegate().ifPresent(Wakeups.Signal::askNow);
	}

	synchronized void wakeDelegate() {
		delegate().ifPresent(Wakeups.Signal::wake);
	}

	private Optional<Wakeups.Signal<W>> delegate() {
		return this.byName.values().stream().filter((signal) -> signal.delegate).findFirst();
	}

	// Whether no waiter is left; a delegate leaving hands its part to the next.
	synchronized boolean remove(Wakeups.Signal<W> signal) {
		if (this.byName.remove(signal.waiter, signal) && signal.delegate && !this.byName.isEmpty()) {
			Wakeups.Signal<W> next = this.byName.values().iterator().next();
			next.delegate = true;
			next.wake();
		}
		return this.byName.isEmpty();
	}

}
