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

package dev.lease.shedlock;

import java.time.Duration;
import java.util.Optional;

import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

import dev.lease.Lease;

/**
 * One ShedLock lock: one grant of a {@link LeaseLockProvider}, released on
 * {@link #unlock()} now or, under {@code lockAtLeastFor}, later; never extended.
 *
 * @author Lease contributors
 */
final class LeaseLock extends AbstractSimpleLock {

	// A held release is not scheduled closer than this to the grant's instant: a
	// scheduler running late would otherwise reach the instant and be answered NotHeld.
	// The instant ends the grant instead, at most this much later than asked.
	static final long INSTANT_MARGIN_NANOS = Duration.ofMillis(100).toNanos();

	private final Lease lease;

	private final long askedNanos;

	private final long answeredNanos;

	private final HeldReleases releases;

	LeaseLock(LockConfiguration configuration, Lease lease, long askedNanos, long answeredNanos,
			HeldReleases releases) {
		super(configuration);
		this.lease = lease;
		this.askedNanos = askedNanos;
		this.answeredNanos = answeredNanos;
		this.releases = releases;
	}

	@Override
	protected void doUnlock() {
		long hold = this.lockConfiguration.getLockAtLeastFor().toNanos();
		if (hold == 0 || System.nanoTime() - this.answeredNanos >= hold) {
			this.releases.releaseNow(this.lease, this.lockConfiguration);
			return;
		}
		// A grant is made no earlier than its take was asked and runs its whole term, so
		// its instant is no earlier than 'asked + term' on this clock.
		long due = this.answeredNanos + hold;
		long term = this.lockConfiguration.getLockAtMostFor().toNanos();
		if (due - (this.askedNanos + term - INSTANT_MARGIN_NANOS) >= 0) {
			this.releases.leaveToInstant(this.lease, this.lockConfiguration);
			return;
		}
		this.releases.releaseAt(this.lease, this.lockConfiguration, due);
	}

	// A lease's term is fixed when it is taken (Invariant 2): there is no extension to
	// give, and ShedLock's contract for a provider without one is this exception. The
	// lock stays valid: it can still be unlocked.
	@Override
	protected Optional<SimpleLock> doExtend(LockConfiguration newConfiguration) {
		throw new UnsupportedOperationException("A lease is never extended: the grant on key '" + this.lease.key()
				+ "' ends at its release or at its instant " + this.lease.expiresAt()
				+ " (Invariant 2). Choose a lockAtMostFor longer than the work");
	}

}
