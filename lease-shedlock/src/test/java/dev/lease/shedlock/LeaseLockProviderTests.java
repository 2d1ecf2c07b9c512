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
import java.time.Instant;
import java.util.UUID;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseKey;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeaseLockProvider}: its construction, default holders, and closing.
 *
 * @author Lease contributors
 */
class LeaseLockProviderTests {

	private final InMemoryLeaseHost host = new InMemoryLeaseHost();

	@Test
	void lockWithDefaultsTakesTheNameAsKeyForShedlockHolder() {
		String name = "report-" + UUID.randomUUID();
		try (LeaseLockProvider provider = new LeaseLockProvider(this.host)) {
			SimpleLock lock = provider.lock(config(name, Duration.ofSeconds(30), Duration.ZERO)).orElseThrow();
			assertThat(this.host.grant(LeaseKey.of(name)).orElseThrow().holder().asString())
				.matches("shedlock@.+:" + ProcessHandle.current().pid() + "/[0-9a-f-]{36}");
			lock.unlock();
			assertThat(this.host.grant(LeaseKey.of(name))).isEmpty();
		}
	}

	@Test
	@DisplayName("Invariant 2.1: close releases a grant held back by lockAtLeastFor when it is old enough, not at its instant")
	void closeReleasesHeldGrantsWhenTheirHoldsEnd() {
		String name = "report-" + UUID.randomUUID();
		Duration atLeast = Duration.ofMillis(600);
		LeaseLockProvider provider = new LeaseLockProvider(this.host, "", "test");
		long asked = System.nanoTime();
		provider.lock(config(name, Duration.ofSeconds(30), atLeast)).orElseThrow().unlock();
		provider.close();
		assertThat(System.nanoTime() - asked).as("nanoseconds until close returned")
			.isGreaterThanOrEqualTo(atLeast.toNanos());
		assertThat(this.host.grant(LeaseKey.of(name))).isEmpty();
	}

	@Test
	@DisplayName("Invariant 2.2: close with a wait shorter than lockAtLeastFor returns within it; the grant stands")
	void closeWithAWaitShorterThanTheHoldLeavesTheGrantToItsInstant() {
		String name = "report-" + UUID.randomUUID();
		LeaseLockProvider provider = new LeaseLockProvider(this.host, "", "test");
		Duration atLeast = Duration.ofSeconds(3);
		long asked = System.nanoTime();
		provider.lock(config(name, Duration.ofSeconds(30), atLeast)).orElseThrow().unlock();
		provider.close(Duration.ofMillis(100));
		// The order of events, not a speed: close came back while the hold still ran.
		assertThat(Duration.ofNanos(System.nanoTime() - asked)).as("time from lock until close returned")
			.isLessThan(atLeast);
		assertThat(this.host.grant(LeaseKey.of(name))).isPresent();
		// Past the hold: nothing released the grant, which stands until its instant.
		await().pollDelay(atLeast.plusMillis(500))
			.atMost(Duration.ofSeconds(5))
			.until(() -> this.host.grant(LeaseKey.of(name)).isPresent());
	}

	@Test
	void createWithEmptyHolderPrefixIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new LeaseLockProvider(this.host, "", " "))
			.withMessageContaining("holderPrefix");
	}

	private static LockConfiguration config(String name, Duration lockAtMostFor, Duration lockAtLeastFor) {
		return new LockConfiguration(Instant.now(), name, lockAtMostFor, lockAtLeastFor);
	}

}
