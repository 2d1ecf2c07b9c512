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

package dev.lease.tck;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.QueuedTakes;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.TryTakeResult;

/**
 * A host that forwards to a correct one; each broken host overrides the one answer it
 * gets wrong.
 *
 * @author Lease contributors
 */
class ForwardingLeaseHost implements LeaseHost {

	final LeaseHost delegate;

	ForwardingLeaseHost(LeaseHost delegate) {
		this.delegate = delegate;
	}

	@Override
	public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		return this.delegate.take(key, holder, duration);
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		return this.delegate.tryTake(key, holder, duration);
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		return this.delegate.remaining(key, holder);
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		return this.delegate.release(key, holder);
	}

	@Override
	public List<Lease> grants(int limit) {
		return this.delegate.grants(limit);
	}

	@Override
	public GrantsPage grants(@Nullable String cursor, int limit) {
		return this.delegate.grants(cursor, limit);
	}

	@Override
	public Optional<Lease> grant(LeaseKey key) {
		return this.delegate.grant(key);
	}

	@Override
	public Optional<QueuedTakes> waiting(LeaseKey key) {
		return this.delegate.waiting(key);
	}

}
