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

package dev.lease.benchmarks;

import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.host.inmemory.InMemoryLeaseHost;

/**
 * The in-memory host: no store calls to count; its bytes are the JVM heap in use after a
 * collection.
 *
 * @author Lease contributors
 */
final class MemoryScaleStore implements ScaleStore {

	private InMemoryLeaseHost host = new InMemoryLeaseHost();

	@Override
	public String name() {
		return "memory";
	}

	@Override
	public LeaseHost host() {
		return this.host;
	}

	@Override
	public Counters counters() {
		return Counters.NONE;
	}

	@Override
	public void forget(LeaseKey key) {
		// its waiters withdraw in memory, at no cost to anyone else
	}

	@Override
	public void clear() {
		this.host = new InMemoryLeaseHost();
	}

	@Override
	public long storedBytes() {
		Runtime runtime = Runtime.getRuntime();
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return runtime.totalMemory() - runtime.freeMemory();
	}

	@Override
	public void close() {
	}

}
