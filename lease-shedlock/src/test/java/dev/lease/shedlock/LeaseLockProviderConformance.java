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
import java.util.UUID;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.test.support.AbstractLockProviderIntegrationTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Lease;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * ShedLock's own provider suite ({@link AbstractLockProviderIntegrationTest}, with its
 * fuzz test) run on a {@link LeaseLockProvider} over a host, and what the lease adds to
 * it: a lock held back by {@code lockAtLeastFor}, and extension refused. ShedLock's
 * {@code AbstractExtensibleLockProviderIntegrationTest} is not extended: the provider is
 * not extensible, and the refusal is checked here instead.
 *
 * @author Lease contributors
 */
abstract class LeaseLockProviderConformance extends AbstractLockProviderIntegrationTest {

	private String keyPrefix = "";

	private LeaseLockProvider provider;

	/**
	 * Return the host under test.
	 * @return the host
	 */
	protected abstract LeaseHost host();

	@BeforeEach
	void createProvider() {
		// Fresh keys per test on a shared server: the suite's own names ("name2", the
		// fuzz test's "lock1" and "lock2") are fixed.
		this.keyPrefix = "shedlock-" + UUID.randomUUID() + ":";
		this.provider = new LeaseLockProvider(host(), this.keyPrefix, "shedlock-test");
	}

	@AfterEach
	void closeProvider() {
		this.provider.close();
	}

	@Override
	protected LeaseLockProvider getLockProvider() {
		return this.provider;
	}

	@Override
	protected void assertUnlocked(String lockName) {
		assertThat(host().grant(key(lockName))).as("grant on " + lockName).isEmpty();
	}

	@Override
	protected void assertLocked(String lockName) {
		assertThat(host().grant(key(lockName))).as("grant on " + lockName).isPresent();
	}

	private LeaseKey key(String lockName) {
		return LeaseKey.of(this.keyPrefix + lockName);
	}

	private Lease grant(String lockName) {
		Optional<Lease> grant = host().grant(key(lockName));
		assertThat(grant).as("grant on " + lockName).isPresent();
		return grant.get();
	}

	private static LockConfiguration config(String name, Duration lockAtMostFor, Duration lockAtLeastFor) {
		return new LockConfiguration(ClockProvider.now(), name, lockAtMostFor, lockAtLeastFor);
	}

	@Test
	@DisplayName("Invariant 2: extend is refused as ShedLock's contract says, and the grant keeps its holder and instant")
	void extendIsRefusedAndTheGrantKeepsItsInstant() {
		SimpleLock lock = this.provider.lock(config(this.LOCK_NAME1, Duration.ofSeconds(30), Duration.ZERO))
			.orElseThrow();
		Lease before = grant(this.LOCK_NAME1);
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> lock.extend(Duration.ofMinutes(5), Duration.ZERO))
			.withMessageContaining("never extended");
		assertThat(grant(this.LOCK_NAME1)).isEqualTo(before);
		lock.unlock();
		assertUnlocked(this.LOCK_NAME1);
	}

	@Test
	@DisplayName("Invariant 2: a lock unlocked is not extended either; ShedLock answers that as an invalid lock")
	void extendAfterUnlockIsIllegal() {
		SimpleLock lock = this.provider.lock(config(this.LOCK_NAME1, Duration.ofSeconds(30), Duration.ZERO))
			.orElseThrow();
		lock.unlock();
		assertThatIllegalStateException().isThrownBy(() -> lock.extend(Duration.ofMinutes(5), Duration.ZERO));
		assertThatIllegalStateException().isThrownBy(lock::unlock);
	}

	@Test
	@DisplayName("Invariant 2: the provider is not extensible, so KeepAliveLockProvider cannot wrap it")
	void providerIsNotExtensible() {
		assertThat(this.provider).isNotInstanceOf(ExtensibleLockProvider.class);
	}

	@Test
	@DisplayName("Operation 6: a held name answers empty at once, for another call of the same provider too")
	void lockWhenHeldAnswersEmptyWithoutWaiting() {
		SimpleLock lock = this.provider.lock(config(this.LOCK_NAME1, Duration.ofSeconds(30), Duration.ZERO))
			.orElseThrow();
		long started = System.nanoTime();
		assertThat(this.provider.lock(config(this.LOCK_NAME1, Duration.ofSeconds(30), Duration.ZERO))).isEmpty();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
		lock.unlock();
	}

	@Test
	@DisplayName("Identity 5: each lock has a fresh holder, so two calls never share one")
	void eachLockHasFreshHolder() {
		SimpleLock first = this.provider.lock(config(this.LOCK_NAME1, Duration.ofSeconds(30), Duration.ZERO))
			.orElseThrow();
		Lease firstGrant = grant(this.LOCK_NAME1);
		first.unlock();
		SimpleLock second = this.provider.lock(config(this.LOCK_NAME1, Duration.ofSeconds(30), Duration.ZERO))
			.orElseThrow();
		Lease secondGrant = grant(this.LOCK_NAME1);
		second.unlock();
		assertThat(firstGrant.holder()).isNotEqualTo(secondGrant.holder());
		assertThat(firstGrant.holder().asString()).startsWith("shedlock-test/");
	}

	@Test
	@DisplayName("Invariant 2.1: under lockAtLeastFor, unlock returns at once and the release comes when the grant is old enough")
	void unlockUnderLockAtLeastForReleasesWhenOldEnough() {
		// Long enough that a stalled test thread does not reach it before unlocking.
		Duration atLeast = Duration.ofSeconds(3);
		long asked = System.nanoTime();
		SimpleLock lock = this.provider.lock(config(this.LOCK_NAME1, Duration.ofSeconds(30), atLeast)).orElseThrow();
		Lease taken = grant(this.LOCK_NAME1);
		lock.unlock();
		// The order of events, not a speed: unlock came back while the hold still ran,
		// and the grant stood after it.
		assertThat(Duration.ofNanos(System.nanoTime() - asked)).as("time from lock until unlock returned")
			.isLessThan(atLeast);
		assertThat(grant(this.LOCK_NAME1)).isEqualTo(taken);
		assertThat(this.provider.lock(config(this.LOCK_NAME1, Duration.ofSeconds(30), Duration.ZERO))).isEmpty();
		await().atMost(Duration.ofSeconds(10)).until(() -> host().grant(key(this.LOCK_NAME1)).isEmpty());
		assertThat(Duration.ofNanos(System.nanoTime() - asked)).isGreaterThanOrEqualTo(atLeast);
	}

	@Test
	@DisplayName("Invariant 2.1: lockAtLeastFor equal to lockAtMostFor leaves the grant to end at its instant")
	void unlockWhenLockAtLeastForIsTheTermLeavesTheGrantToItsInstant() {
		Duration term = Duration.ofSeconds(3);
		long asked = System.nanoTime();
		SimpleLock lock = this.provider.lock(config(this.LOCK_NAME1, term, term)).orElseThrow();
		Lease taken = grant(this.LOCK_NAME1);
		lock.unlock();
		assertThat(grant(this.LOCK_NAME1)).isEqualTo(taken);
		await().atMost(Duration.ofSeconds(10)).until(() -> host().grant(key(this.LOCK_NAME1)).isEmpty());
		assertThat(Duration.ofNanos(System.nanoTime() - asked)).isGreaterThanOrEqualTo(term);
		SimpleLock next = this.provider.lock(config(this.LOCK_NAME1, Duration.ofSeconds(30), Duration.ZERO))
			.orElseThrow();
		next.unlock();
	}

}
