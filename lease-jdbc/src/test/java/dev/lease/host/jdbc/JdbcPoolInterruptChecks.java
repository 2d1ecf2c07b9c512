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

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.assertj.core.api.SoftAssertions;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.ReleaseResult;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.host.Withdrawals;
import dev.lease.tck.Stalls;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Waiters interrupted while they wait for a connection of a small pool (Host semantics
 * interruption, Operation 2, Non-goal 4): each throws {@link InterruptedException}, and
 * none leaves a waiter row behind to which a release would hand the key.
 *
 * @author Lease contributors
 */
abstract class JdbcPoolInterruptChecks {

	private static final Duration LONG = Duration.ofSeconds(60);

	// Short, so that queued waiters ask where they stand several times a second.
	private static final Duration WAITER_TERM = Duration.ofMillis(400);

	private static final int POOL = 4;

	private static final int QUEUED = 40;

	private static final int ENTERING = 40;

	// Set here so that a withdrawal waiting for the pool shows within a test's time.
	private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(10);

	// Every connection is held this long after an interrupt, past the pool's timeout.
	private static final Duration BUSY = Duration.ofSeconds(12);

	// Beyond the withdrawal's patience, which bounds the caller's wait: the return
	// itself.
	private static final Duration MARGIN = Duration.ofMillis(500);

	// How long a withdrawal left to the background may take to be written.
	private static final Duration WITHDRAWN = Duration.ofSeconds(60);

	private final Stalls stalls = new Stalls();

	private HikariDataSource pool;

	private HikariDataSource observer;

	private JdbcLeaseHost host;

	private JdbcTemplate jdbc;

	private final List<Connection> hostages = new ArrayList<>();

	// The JDBC URL of the database, whose tables the shipped script has created.
	abstract String url();

	abstract String platform();

	@BeforeEach
	void startHost() {
		String url = url();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(POOL);
		config.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
		config.setPoolName("lease-test-interrupt-" + UUID.randomUUID().toString().substring(0, 8));
		this.pool = JdbcTestServers.withSchema(new HikariDataSource(config), platform());
		this.observer = JdbcTestServers.pool(url, platform());
		this.jdbc = new JdbcTemplate(this.observer);
		this.host = new JdbcLeaseHost(this.pool);
	}

	@AfterEach
	void stopHost() throws Exception {
		this.stalls.close();
		releaseHostages();
		this.host.close();
		this.pool.close();
		this.observer.close();
	}

	@Test
	@DisplayName("Host: interruption, Operation 2: waiters interrupted while waiting for a pool connection throw InterruptedException and leave no waiter row for the key to be handed to")
	void waitersInterruptedWaitingForAPoolConnectionLeaveNothingQueued() throws Exception {
		// One key per queued waiter: of a key's waiters in one JVM only one re-asks on
		// its own (issue 16), and each of these must ask, and meet the empty pool.
		List<LeaseKey> keys = new ArrayList<>();
		LeaseHolder holder = LeaseHolder.of("holder:" + UUID.randomUUID());
		for (int i = 0; i < QUEUED; i++) {
			LeaseKey queuedOn = LeaseKey.of("jdbc-interrupt:" + UUID.randomUUID());
			assertThat(this.host.tryTake(queuedOn, holder, LONG)).isInstanceOf(Taken.class);
			keys.add(queuedOn);
		}
		LeaseKey key = keys.get(0);
		List<Waiter> waiters = new ArrayList<>();
		for (int i = 0; i < QUEUED; i++) {
			waiters.add(new Waiter(this.host, keys.get(i), "queued-" + i, WAITER_TERM));
		}
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> queued(keys) == QUEUED);
		takeEveryConnection();
		// Half on a key of its own each, every one waiting for the pool; half on one key,
		// where this JVM's takes enter together (KeyEntries): one waits for the pool for
		// them, the others wait for its transaction, holding nothing.
		for (int i = 0; i < ENTERING; i++) {
			LeaseKey entering = (i % 2 == 0) ? keys.get(1 + i / 2) : key;
			waiters.add(new Waiter(this.host, entering, "entering-" + i, WAITER_TERM));
		}
		// The queued ones ask where they stand within half their term and meet the
		// empty pool too.
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.pool.getHikariPoolMXBean().getThreadsAwaitingConnection() >= QUEUED + ENTERING / 2 - 1);
		List<Waiter> shuffled = new ArrayList<>(waiters);
		Collections.shuffle(shuffled);
		for (Waiter waiter : shuffled) {
			waiter.thread.interrupt();
			TimeUnit.MICROSECONDS.sleep(ThreadLocalRandom.current().nextLong(5_000));
		}
		TimeUnit.MILLISECONDS.sleep(200);
		releaseHostages();
		Map<String, List<String>> notInterrupted = new TreeMap<>();
		for (Waiter waiter : waiters) {
			waiter.thread.join(TimeUnit.SECONDS.toMillis(30));
			Object outcome = waiter.thread.isAlive() ? "still running" : waiter.outcome.get();
			if (!interrupted(outcome)) {
				notInterrupted.computeIfAbsent(String.valueOf(outcome), (k) -> new ArrayList<>()).add(waiter.name);
			}
		}
		int left = withdrawn(keys);
		List<ReleaseResult> released = new ArrayList<>();
		for (LeaseKey queuedOn : keys) {
			released.add(this.host.release(queuedOn, holder));
		}
		List<Lease> standing = this.host.grants(Integer.MAX_VALUE)
			.stream()
			.filter((lease) -> keys.contains(lease.key()))
			.toList();
		SoftAssertions.assertSoftly((softly) -> {
			softly.assertThat(notInterrupted)
				.as("waiters that did not throw InterruptedException or a failure it caused, by outcome")
				.isEmpty();
			softly.assertThat(left).as("waiter rows left behind by interrupted waiters").isZero();
			softly.assertThat(released).as("the holder's releases").allMatch(Released.class::isInstance);
			softly.assertThat(standing).as("grants handed on by the holder's release, to nobody alive").isEmpty();
		});
		assertThat(this.host.tryTake(key, LeaseHolder.of("fresh:" + UUID.randomUUID()), LONG))
			.isInstanceOf(Taken.class);
	}

	@Test
	@DisplayName("Host: interruption, Operation 2: waiters interrupted while every pool connection stays busy past the pool's timeout throw InterruptedException within 2 s and leave no waiter row and no grant")
	void waitersInterruptedWhileEveryConnectionIsBusyReturnPromptly() throws Exception {
		LeaseKey key = LeaseKey.of("jdbc-interrupt-busy:" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("holder:" + UUID.randomUUID());
		assertThat(this.host.tryTake(key, holder, LONG)).isInstanceOf(Taken.class);
		// Of a key's waiters in one JVM, the first polls without notifications and the
		// second sleeps: one meets the empty pool asking, the other only withdrawing.
		Waiter first = new Waiter(this.host, key, "first", LONG);
		await().atMost(Duration.ofSeconds(30)).until(() -> queued(List.of(key)) == 1);
		Waiter second = new Waiter(this.host, key, "second", LONG);
		await().atMost(Duration.ofSeconds(30)).until(() -> queued(List.of(key)) == 2);
		takeEveryConnection();
		TimeUnit.MILLISECONDS.sleep(300);
		second.interruptAndJoin(BUSY);
		first.interruptAndJoin(BUSY);
		releaseHostages();
		first.thread.join(TimeUnit.SECONDS.toMillis(60));
		second.thread.join(TimeUnit.SECONDS.toMillis(60));
		int left = withdrawn(List.of(key));
		ReleaseResult released = this.host.release(key, holder);
		Optional<Lease> standing = this.host.grant(key);
		SoftAssertions.assertSoftly((softly) -> {
			for (Waiter waiter : List.of(first, second)) {
				softly.assertThat(waiter.outcome.get())
					.as(waiter.name + "'s outcome")
					.matches(JdbcPoolInterruptChecks::interrupted,
							"InterruptedException, or LeaseHostException caused by it");
				softly.assertThat(waiter.tookToReturn())
					.as(waiter.name + "'s time from its interrupt to its return")
					.isLessThanOrEqualTo(prompt());
			}
			softly.assertThat(left).as("waiter rows left behind by interrupted waiters").isZero();
			softly.assertThat(released).as("the holder's release").isInstanceOf(Released.class);
			softly.assertThat(standing).as("a grant handed on by the holder's release").isEmpty();
		});
	}

	@Test
	@DisplayName("Host: interruption, Operation 2: where takes clean up, a waiter interrupted while every pool connection stays busy throws InterruptedException within 2 s, its clean-up left to a later question")
	void waiterInterruptedWhileEveryConnectionIsBusyWhereTakesCleanUpReturnsPromptly() throws Exception {
		try (JdbcLeaseHost cleaningUp = JdbcLeaseHost.builder(this.pool).cleanupInterval(Duration.ZERO).build()) {
			LeaseKey key = LeaseKey.of("jdbc-interrupt-cleanup:" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder:" + UUID.randomUUID());
			assertThat(cleaningUp.tryTake(key, holder, LONG)).isInstanceOf(Taken.class);
			Waiter waiter = new Waiter(cleaningUp, key, "cleaning-up", LONG);
			await().atMost(Duration.ofSeconds(30)).until(() -> queued(List.of(key)) == 1);
			takeEveryConnection();
			// Past the second after which a take cleans up again.
			TimeUnit.MILLISECONDS.sleep(1500);
			waiter.interruptAndJoin(BUSY);
			releaseHostages();
			waiter.thread.join(TimeUnit.SECONDS.toMillis(60));
			int left = withdrawn(List.of(key));
			SoftAssertions.assertSoftly((softly) -> {
				softly.assertThat(waiter.outcome.get())
					.as("the waiter's outcome")
					.matches(JdbcPoolInterruptChecks::interrupted,
							"InterruptedException, or LeaseHostException caused by it");
				softly.assertThat(waiter.tookToReturn())
					.as("the waiter's time from its interrupt to its return")
					.isLessThanOrEqualTo(prompt());
				softly.assertThat(left).as("the interrupted waiter's row").isZero();
			});
			assertThat(cleaningUp.release(key, holder)).isInstanceOf(Released.class);
			assertThat(cleaningUp.grant(key)).isEmpty();
		}
	}

	@Test
	@DisplayName("Host: interruption, Operation 2: a waiter handed the key by another host's release, interrupted while every pool connection stays busy, throws InterruptedException within 2 s and the grant is given back")
	void waiterHandedTheKeyAndInterruptedWhileEveryConnectionIsBusyGivesItBack() throws Exception {
		// Without notifications the waiter learns of its grant only by asking, which the
		// busy pool keeps it from; the release comes from a host with a pool of its own.
		try (JdbcLeaseHost polling = JdbcLeaseHost.builder(this.pool).notifications(false).build();
				JdbcLeaseHost elsewhere = new JdbcLeaseHost(this.observer)) {
			LeaseKey key = LeaseKey.of("jdbc-interrupt-handed:" + UUID.randomUUID());
			LeaseHolder holder = LeaseHolder.of("holder:" + UUID.randomUUID());
			assertThat(elsewhere.tryTake(key, holder, LONG)).isInstanceOf(Taken.class);
			Waiter waiter = new Waiter(polling, key, "handed", LONG);
			await().atMost(Duration.ofSeconds(30)).until(() -> queued(List.of(key)) == 1);
			takeEveryConnection();
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> this.pool.getHikariPoolMXBean().getThreadsAwaitingConnection() >= 1);
			assertThat(elsewhere.release(key, holder)).isInstanceOf(Released.class);
			assertThat(elsewhere.grant(key)).map(Lease::holder).hasValue(waiter.holder);
			waiter.interruptAndJoin(BUSY);
			releaseHostages();
			waiter.thread.join(TimeUnit.SECONDS.toMillis(60));
			int left = withdrawn(List.of(key));
			Optional<Lease> standing = elsewhere.grant(key);
			SoftAssertions.assertSoftly((softly) -> {
				softly.assertThat(waiter.outcome.get())
					.as("the waiter's outcome")
					.matches(JdbcPoolInterruptChecks::interrupted,
							"InterruptedException, or LeaseHostException caused by it");
				softly.assertThat(waiter.tookToReturn())
					.as("the waiter's time from its interrupt to its return")
					.isLessThanOrEqualTo(prompt());
				softly.assertThat(left).as("the interrupted waiter's row").isZero();
				softly.assertThat(standing).as("the grant handed to the interrupted waiter").isEmpty();
			});
			assertThat(elsewhere.tryTake(key, LeaseHolder.of("fresh:" + UUID.randomUUID()), LONG))
				.isInstanceOf(Taken.class);
		}
	}

	// Hold every connection the pool can lend: the waiters meet an empty pool.
	private void takeEveryConnection() throws Exception {
		while (this.hostages.size() < POOL) {
			this.hostages.add(this.pool.getConnection());
		}
	}

	private void releaseHostages() throws Exception {
		for (Connection hostage : this.hostages) {
			hostage.close();
		}
		this.hostages.clear();
	}

	// An interrupted waiter's answer: InterruptedException, or, when its withdrawal was
	// not written within the patience, LeaseHostException caused by the interrupt.
	static boolean interrupted(Object outcome) {
		return outcome instanceof InterruptedException
				|| (outcome instanceof LeaseHostException ex && ex.getCause() instanceof InterruptedException);
	}

	// The bound an interrupted waiter returns within while every connection is busy:
	// its withdrawal's patience, never the pool's connection timeout, and the time the
	// machine took from the test.
	private Duration prompt() {
		return Withdrawals.PATIENCE.plus(MARGIN).plus(this.stalls.lost());
	}

	// The waiter rows left once the withdrawals left to the background are written.
	private int withdrawn(List<LeaseKey> keys) {
		try {
			await().atMost(WITHDRAWN).pollInterval(Duration.ofMillis(50)).until(() -> queued(keys) == 0);
		}
		catch (ConditionTimeoutException ex) {
			// The count below names what is left.
		}
		return queued(keys);
	}

	private int queued(List<LeaseKey> keys) {
		int queued = 0;
		for (LeaseKey key : keys) {
			Integer count = this.jdbc.queryForObject("SELECT COUNT(*) FROM LEASE_WAITERS WHERE LEASE_KEY = ?",
					Integer.class, (Object) key.bytes());
			queued += (count != null) ? count : 0;
		}
		return queued;
	}

	/**
	 * A take on its own thread, what it answered or threw, and when.
	 */
	private static final class Waiter {

		final String name;

		final LeaseHolder holder;

		final AtomicReference<Object> outcome = new AtomicReference<>();

		final Thread thread;

		private volatile long interruptedAt;

		private volatile boolean returned;

		private volatile long returnedAt;

		Waiter(LeaseHost host, LeaseKey key, String name, Duration term) {
			this.name = name;
			this.holder = LeaseHolder.of(name + ":" + UUID.randomUUID());
			this.thread = new Thread(() -> {
				try {
					this.outcome.set(host.take(key, this.holder, term));
				}
				catch (Throwable ex) {
					this.outcome.set(ex);
				}
				finally {
					this.returnedAt = System.nanoTime();
					this.returned = true;
				}
			}, "lease-test-" + name);
			this.thread.start();
		}

		void interruptAndJoin(Duration atMost) throws InterruptedException {
			this.interruptedAt = System.nanoTime();
			this.thread.interrupt();
			this.thread.join(atMost.toMillis());
		}

		// From its interrupt to its return, or to now while it has not returned.
		Duration tookToReturn() {
			long end = this.returned ? this.returnedAt : System.nanoTime();
			return Duration.ofNanos(end - this.interruptedAt);
		}

	}

}
