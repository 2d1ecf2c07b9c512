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

package dev.lease.template;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import dev.lease.Lease;

/**
 * A grant taken by
 * {@link LeaseTemplate#take(LeaseRequest, dev.lease.annotation.LeaseMode)} and not yet
 * given back: the caller ends it with {@link LeaseTemplate#release(HeldLease)}. When its
 * request holds at least a while, it remembers when the take answered, on its template's
 * clock.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class HeldLease {

	// A field of each grant rather than an AtomicBoolean beside it: nothing more to
	// allocate per take.
	private static final AtomicIntegerFieldUpdater<HeldLease> FINISHED = AtomicIntegerFieldUpdater
		.newUpdater(HeldLease.class, "finished");

	private final Lease lease;

	private final LeaseRequest request;

	private final long takenAtNanos;

	@SuppressWarnings("unused") // through FINISHED
	private volatile int finished;

	HeldLease(Lease lease, LeaseRequest request, long takenAtNanos) {
		this.lease = lease;
		this.request = request;
		this.takenAtNanos = takenAtNanos;
	}

	/**
	 * Return the grant as the host answered it.
	 * @return the grant
	 */
	public Lease lease() {
		return this.lease;
	}

	LeaseRequest request() {
		return this.request;
	}

	long takenAtNanos() {
		return this.takenAtNanos;
	}

	// A grant is given back once, however many paths reach its end (a reactive
	// pipeline's cancel and its discard, for instance).
	boolean finish() {
		return FINISHED.compareAndSet(this, 0, 1);
	}

	@Override
	public String toString() {
		return "HeldLease " + this.lease;
	}

}
