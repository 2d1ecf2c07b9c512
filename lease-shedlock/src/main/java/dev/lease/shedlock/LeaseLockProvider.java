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

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.TryTakeResult;

/**
 * A ShedLock {@link LockProvider} that takes a lease on a {@link LeaseHost} for each
 * lock: a dependency swap for an application that keeps its {@code @SchedulerLock}
 * annotations as they are.
 * <ul>
 * <li>The lock's name is the lease's key (after an optional key prefix, none by default),
 * so {@code @SchedulerLock(name = "report")} and {@code @Leased(key = "'report'")}
 * contend for the same key on the same host.</li>
 * <li>{@code lockAtMostFor} is the lease's term, and the lock is a
 * {@link LeaseHost#tryTake try take}: a held key answers an empty {@link Optional} at
 * once, and ShedLock skips the run. Nothing waits.</li>
 * <li>Each lock has a fresh holder, {@code <holderPrefix>/<uuid>}: two instances, and two
 * calls in one instance, never share a holder, so a lock held back by
 * {@code lockAtLeastFor} is answered as held to this instance too.</li>
 * <li>{@code lockAtLeastFor} holds the release back. {@link SimpleLock#unlock()} on a
 * grant younger than {@code lockAtLeastFor} (measured from the take's answer on this
 * JVM's monotonic clock, so the grant is at least that old on any clock) returns at once,
 * and one daemon thread of this provider, started on the first such hold, releases the
 * grant when it is old enough. When that would be within 100 ms of the grant's instant
 * (always when {@code lockAtLeastFor} equals {@code lockAtMostFor}), nothing is released:
 * the instant ends the grant. A release never waits past the instant, and no thread is
 * held for the hold.</li>
 * <li>A lock is never extended: a lease's term is fixed when it is taken, and a grant
 * ends at exactly one of its release and its instant (Invariant 2). This provider is not
 * an {@link ExtensibleLockProvider}, so ShedLock's {@code KeepAliveLockProvider} cannot
 * wrap it, and {@link SimpleLock#extend} (as called by {@code LockExtender}) throws
 * {@link UnsupportedOperationException}, which is what ShedLock's contract says a
 * provider without extension does. Choose a {@code lockAtMostFor} longer than the
 * work.</li>
 * </ul>
 * Host failures ({@code LeaseHostException}) on the take are thrown to ShedLock, which
 * does not run the task. A release that fails, or is answered {@code NotHeld} because the
 * work outran {@code lockAtMostFor}, is logged: the grant has ended or ends at its
 * instant. {@link #close(Duration) Closing} the provider makes each release still held
 * back when it is due, within the wait it is given ({@link #close()}: 30 seconds), so a
 * restart within {@code lockAtLeastFor} keeps other instances out for at most that; a
 * release due later is never made early, and its grant ends at its instant (logged).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseLockProvider implements LockProvider, AutoCloseable {

	// As long as Spring's default timeout per shutdown phase.
	private static final Duration DEFAULT_CLOSE_WAIT = Duration.ofSeconds(30);

	private final LeaseHost host;

	private final String keyPrefix;

	private final String holderPrefix;

	private final HeldReleases releases;

	/**
	 * Create a provider whose keys are the lock names and whose holders are
	 * {@code shedlock@<host>:<pid>/<uuid>}.
	 * @param host the host to take leases on
	 */
	public LeaseLockProvider(LeaseHost host) {
		this(host, "", defaultHolderPrefix());
	}

	/**
	 * Create a provider.
	 * @param host the host to take leases on
	 * @param keyPrefix what precedes each lock name in its key, possibly empty
	 * @param holderPrefix what precedes the fresh UUID of each lock's holder
	 */
	public LeaseLockProvider(LeaseHost host, String keyPrefix, String holderPrefix) {
		if (host == null) {
			throw new IllegalArgumentException("'host' must not be null");
		}
		if (keyPrefix == null) {
			throw new IllegalArgumentException("'keyPrefix' must not be null");
		}
		if (holderPrefix == null || holderPrefix.isBlank()) {
			throw new IllegalArgumentException("'holderPrefix' must not be empty");
		}
		this.host = host;
		this.keyPrefix = keyPrefix;
		this.holderPrefix = holderPrefix;
		this.releases = new HeldReleases(host);
	}

	// The JVM's name is "<pid>@<host>" on the usual JVMs; the holder names the host
	// first.
	private static String defaultHolderPrefix() {
		String jvm = ManagementFactory.getRuntimeMXBean().getName();
		int at = jvm.indexOf('@');
		String where = (at > 0) ? jvm.substring(at + 1) + ":" + jvm.substring(0, at) : jvm;
		return "shedlock@" + where;
	}

	/**
	 * Try to take the lease on the lock's name for {@code lockAtMostFor}, never waiting.
	 * @param configuration the lock's name, {@code lockAtMostFor} and
	 * {@code lockAtLeastFor}
	 * @return the lock, or empty when another holder has the key
	 * @throws IllegalArgumentException if {@code lockAtMostFor} is not a term the host
	 * accepts (zero, finer than its resolution, beyond its maximum)
	 * @throws dev.lease.LeaseHostException if the host failed to answer
	 */
	@Override
	public Optional<SimpleLock> lock(LockConfiguration configuration) {
		LeaseKey key = LeaseKey.of(this.keyPrefix + configuration.getName());
		LeaseHolder holder = LeaseHolder.of(this.holderPrefix + "/" + UUID.randomUUID());
		Duration term = configuration.getLockAtMostFor();
		long asked = System.nanoTime();
		TryTakeResult result = this.host.tryTake(key, holder, term);
		long answered = System.nanoTime();
		if (result instanceof Taken taken) {
			return Optional.of(new LeaseLock(configuration, taken.lease(), asked, answered, this.releases));
		}
		// Held: another holder has the key, and ShedLock skips the run.
		return Optional.empty();
	}

	/**
	 * Return the host this provider takes leases on.
	 * @return the host
	 */
	public LeaseHost getHost() {
		return this.host;
	}

	/**
	 * Close as {@link #close(Duration)} does, waiting at most 30 seconds.
	 */
	@Override
	public void close() {
		close(DEFAULT_CLOSE_WAIT);
	}

	/**
	 * Stop holding releases back: each release held back by {@code lockAtLeastFor} and
	 * due within the wait is made when due, and this returns once they are made, or when
	 * the wait has passed. A release due later is not made early: its grant ends at its
	 * instant, logged at info level with its key. Locks taken afterwards still work, but
	 * a release they hold back is left to the instant too. A second close does nothing.
	 * @param wait how long to wait at most for the releases still due
	 * @since 0.1.0
	 */
	public void close(Duration wait) {
		if (wait == null || wait.isNegative()) {
			throw new IllegalArgumentException("'wait' must not be null or negative");
		}
		this.releases.close(wait);
	}

}
