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

package dev.lease.actuate.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.QueuedTakes;
import dev.lease.actuate.endpoint.LeasesDescriptor.LeaseDescriptor;
import dev.lease.actuate.endpoint.LeasesEndpointTests.RemainingCountingHost;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeasesEndpoint}'s answer to how many takes wait for a key.
 *
 * @author Lease contributors
 */
class LeasesEndpointWaitingTests {

	private final InMemoryLeaseHost host = new InMemoryLeaseHost();

	@Test
	@DisplayName("Waiting 1: the read of one key shows how many takes wait for it; the listing does not ask")
	void leaseShowsHowManyTakesWait() throws Exception {
		String key = fresh();
		this.host.tryTake(LeaseKey.of(key), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		Instant called = Instant.now();
		Thread waiter = new Thread(() -> {
			try {
				this.host.take(LeaseKey.of(key), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		waiter.start();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.host.waiting(LeaseKey.of(key)).orElseThrow().count() == 1);
		LeasesEndpoint endpoint = endpoint(Show.ALWAYS);
		LeaseDescriptor lease = endpoint.lease(SecurityContext.NONE, key);
		assertThat(lease).isNotNull();
		assertThat(lease.waiting()).isEqualTo(1);
		assertThat(lease.waitingSince()).as("when the take arrived, on the memory host's clock, the JVM's")
			.isBetween(called, Instant.now());
		assertThat(endpoint.leases(SecurityContext.NONE, LeasesEndpoint.MAXIMUM_LIMIT, null).leases())
			.filteredOn((listed) -> listed.key().equals(key))
			.singleElement()
			.satisfies((listed) -> assertThat(listed.waiting()).isNull());
		waiter.interrupt();
		waiter.join(Duration.ofSeconds(30).toMillis());
	}

	@Test
	@DisplayName("Waiting 1: since when takes wait is shown when the host keeps it, and no count when the host cannot tell")
	void leaseShowsSinceWhenTheHostKeepsItAndNoCountWhenItCannotTell() {
		String key = fresh();
		this.host.tryTake(LeaseKey.of(key), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		RemainingCountingHost counting = new RemainingCountingHost(this.host);
		LeasesEndpoint endpoint = new LeasesEndpoint(counting, Show.ALWAYS, Set.of());
		LeaseDescriptor cannotTell = endpoint.lease(SecurityContext.NONE, key);
		assertThat(cannotTell).isNotNull();
		assertThat(cannotTell.waiting()).isNull();
		assertThat(cannotTell.waitingSince()).isNull();
		Instant since = Instant.parse("2026-01-02T03:04:05.123456Z");
		counting.queuedTakes = new QueuedTakes(2, since);
		LeaseDescriptor known = endpoint.lease(SecurityContext.NONE, key);
		assertThat(known).isNotNull();
		assertThat(known.waiting()).isEqualTo(2);
		assertThat(known.waitingSince()).isEqualTo(since);
	}

	private LeasesEndpoint endpoint(Show show) {
		return new LeasesEndpoint(this.host, show, Set.of());
	}

	private static String fresh() {
		return UUID.randomUUID().toString();
	}

}
