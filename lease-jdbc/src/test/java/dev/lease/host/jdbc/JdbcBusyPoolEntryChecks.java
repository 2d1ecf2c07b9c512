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

package dev.lease.host.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.assertj.core.api.Assertions;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.JdbcTestServers;

/**
 * Takes of one held key that arrive while every connection of a small pool is lent for
 * longer than the pool's connection timeout (Operation 1, 2): each waits for a connection
 * within its own term rather than the pool's timeout, enters the queue, and is granted in
 * arrival order; a take interrupted before its entry was sent is never queued nor
 * granted.
 *
 * @author Lease contributors
 */
abstract class JdbcBusyPoolEntryChecks {

	private static final int POOL = 2;

	private static final int TAKES = 200;

	// Short, so that a take that waits for a connection only as long as the pool does
	// fails within the test.
	private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(1);

	// Every connection is held this long once a take waits for one: past the pool's
	// timeout, well within the takes' term.
	private static final Duration BUSY = CONNECTION_TIMEOUT.multipliedBy(3);

	// Long enough for every take to be served on a busy machine.
	private static final Duration TERM = Duration.ofSeconds(120);

	private HikariDataSource pool;

	private HikariDataSource observer;

	private JdbcTemplate jdbc;

	private JdbcLeaseHost host;

	private final List<Connection> hostages = new ArrayList<>();

	abstract String url();

	abstract String platform();

	@BeforeEach
	void startHost() {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url());
		config.setMaximumPoolSize(POOL);
		config.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
		config.setPoolName("lease-busy-pool-" + UUID.randomUUID().toString().substring(0, 8));
		this.pool = JdbcTestServers.withSchema(new HikariDataSource(config), platform());
		this.observer = JdbcTestServers.pool(url(), platform());
		this.jdbc = new JdbcTemplate(this.observer);
		this.host = new JdbcLeaseHost(this.pool);
	}

	@AfterEach
	void stopHost() throws Exception {
		releaseHostages();
		this.host.close();
		this.pool.close();
		this.observer.close();
	}

	@Test
	@DisplayName("Operation 1, 2, Non-goal 3: 200 takes of a held key arriving while a pool of 2 lends every connection past its timeout are all queued and granted in arrival order")
	void takesArrivingWhileThePoolIsBusyAreQueuedAndGrantedInArrivalOrder() throws Exception {
		LeaseKey key = LeaseKey.of("busy-pool:" + UUID.randomUUID());
		LeaseHolder first = LeaseHolder.of("first:" + UUID.randomUUID());
		Assertions.assertThat(this.host.tryTake(key, first, TERM)).isInstanceOf(Taken.class);
		List<String> granted = new CopyOnWriteArrayList<>();
		takeEveryConnection();
		List<Take> takes = new ArrayList<>();
		for (int i = 0; i < TAKES; i++) {
			takes.add(new Take(key, "take-" + i, granted));
		}
		holdPastTheTimeout();
		releaseHostages();
		awaitQueuedOrEnded(key, takes, TAKES);
		List<String> queued = queuedHolders(key);
		Assertions.assertThat(this.host.release(key, first)).isInstanceOf(Released.class);
		List<String> failures = new ArrayList<>();
		for (Take take : takes) {
			take.thread.join(TERM.toMillis());
			Object outcome = take.thread.isAlive() ? "still waiting" : take.outcome.get();
			if (!(outcome instanceof Taken)) {
				failures.add(take.name + ": " + outcome);
			}
		}
		Assertions.assertThat(failures).as("takes not granted").isEmpty();
		Assertions.assertThat(queued).as("takes queued").hasSize(TAKES);
		Assertions.assertThat(granted).as("order of grants").containsExactlyElementsOf(queued);
	}

	@Test
	@DisplayName("Host: interruption, Operation 2: a take interrupted while it waits to enter behind a busy pool is never queued nor granted; the others are, in arrival order")
	void takeInterruptedBeforeItsEntryWasSentIsNeverGranted() throws Exception {
		LeaseKey key = LeaseKey.of("busy-pool-interrupt:" + UUID.randomUUID());
		LeaseHolder first = LeaseHolder.of("first:" + UUID.randomUUID());
		Assertions.assertThat(this.host.tryTake(key, first, TERM)).isInstanceOf(Taken.class);
		List<String> granted = new CopyOnWriteArrayList<>();
		takeEveryConnection();
		List<Take> takes = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			takes.add(new Take(key, "take-" + i, granted));
			// One at a time, so that each is in line before the next.
			Take last = takes.get(i);
			Awaitility.await()
				.atMost(Duration.ofSeconds(30))
				.until(() -> last.thread.getState() == Thread.State.WAITING
						|| last.thread.getState() == Thread.State.TIMED_WAITING);
		}
		Take interrupted = takes.get(2);
		interrupted.thread.interrupt();
		interrupted.thread.join(TimeUnit.SECONDS.toMillis(30));
		holdPastTheTimeout();
		releaseHostages();
		awaitQueuedOrEnded(key, takes, 3);
		List<String> queued = queuedHolders(key);
		Assertions.assertThat(this.host.release(key, first)).isInstanceOf(Released.class);
		for (Take take : takes) {
			take.thread.join(TERM.toMillis());
		}
		Assertions.assertThat(interrupted.outcome.get())
			.as("the interrupted take's outcome")
			.isInstanceOf(InterruptedException.class);
		Assertions.assertThat(queued)
			.as("takes queued")
			.containsExactly(takes.get(0).holder.asString(), takes.get(1).holder.asString(),
					takes.get(3).holder.asString());
		Assertions.assertThat(granted).as("order of grants").containsExactlyElementsOf(queued);
	}

	// Hold every connection the pool can lend, so that the takes meet an empty pool.
	private void takeEveryConnection() throws Exception {
		while (this.hostages.size() < POOL) {
			this.hostages.add(this.pool.getConnection());
		}
	}

	// Once a take waits for a connection, keep the pool empty past its timeout: a
	// pause on purpose, not a wait for a condition.
	private void holdPastTheTimeout() throws InterruptedException {
		Awaitility.await()
			.atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> this.pool.getHikariPoolMXBean().getThreadsAwaitingConnection() >= 1);
		Thread.sleep(BUSY.toMillis());
	}

	private void releaseHostages() throws Exception {
		for (Connection hostage : this.hostages) {
			hostage.close();
		}
		this.hostages.clear();
	}

	// Until the takes stand in the queue, or one of them has ended (a failure).
	private void awaitQueuedOrEnded(LeaseKey key, List<Take> takes, int expected) {
		Awaitility.await()
			.atMost(TERM)
			.pollInterval(Duration.ofMillis(50))
			.until(() -> queuedHolders(key).size() >= expected || takes.stream()
				.anyMatch((take) -> !take.thread.isAlive() && !(take.outcome.get() instanceof InterruptedException)));
	}

	private List<String> queuedHolders(LeaseKey key) {
		return this.jdbc.query("SELECT HOLDER FROM LEASE_WAITERS WHERE LEASE_KEY = ? ORDER BY ARRIVAL",
				(row, n) -> new String(row.getBytes(1), StandardCharsets.UTF_8), (Object) key.bytes());
	}

	/**
	 * A take on its own thread that releases as soon as it is granted.
	 */
	private final class Take {

		final String name;

		final LeaseHolder holder;

		final AtomicReference<Object> outcome = new AtomicReference<>();

		final Thread thread;

		Take(LeaseKey key, String name, List<String> granted) {
			this.name = name;
			this.holder = LeaseHolder.of(name + ":" + UUID.randomUUID());
			this.thread = new Thread(() -> {
				try {
					TakeResult result = JdbcBusyPoolEntryChecks.this.host.take(key, this.holder, TERM);
					if (result instanceof Taken) {
						granted.add(this.holder.asString());
						JdbcBusyPoolEntryChecks.this.host.release(key, this.holder);
					}
					this.outcome.set(result);
				}
				catch (Throwable ex) {
					this.outcome.set(ex);
				}
			}, "lease-test-" + name);
			this.thread.start();
		}

	}

}
