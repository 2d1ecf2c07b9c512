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

package dev.lease.aop;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

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
 * A {@link LeaseHost} that passes every question to a real host and records it, so tests
 * can see what the interceptor or the template asked and in which order.
 *
 * @author Lease contributors
 */
public class RecordingLeaseHost implements LeaseHost {

	private final LeaseHost host;

	private final List<String> calls = new CopyOnWriteArrayList<>();

	public RecordingLeaseHost(LeaseHost host) {
		this.host = host;
	}

	public List<String> calls() {
		return this.calls;
	}

	@Override
	public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		this.calls.add("take " + key);
		return this.host.take(key, holder, duration);
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		this.calls.add("tryTake " + key);
		return this.host.tryTake(key, holder, duration);
	}

	// Not a call to record: how many wait, for a test to know its waiter queued.
	@Override
	public Optional<QueuedTakes> waiting(LeaseKey key) {
		return this.host.waiting(key);
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		this.calls.add("remaining " + key);
		return this.host.remaining(key, holder);
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		this.calls.add("release " + key);
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
