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

package dev.lease.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.TryTakeResult;
import dev.lease.host.inmemory.InMemoryLeaseHost;

/**
 * A user-defined {@link LeaseHost}: passes every question to an in-memory host.
 *
 * @author Lease contributors
 */
public class CustomLeaseHost implements LeaseHost {

	private final LeaseHost host = new InMemoryLeaseHost();

	@Override
	public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		return this.host.take(key, holder, duration);
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		return this.host.tryTake(key, holder, duration);
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		return this.host.remaining(key, holder);
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		return this.host.release(key, holder);
	}

	@Override
	public List<Lease> grants(int limit) {
		return this.host.grants(limit);
	}

	@Override
	public GrantsPage grants(@Nullable String cursor, int limit) {
		return this.host.grants(cursor, limit);
	}

	@Override
	public Optional<Lease> grant(LeaseKey key) {
		return this.host.grant(key);
	}

}
