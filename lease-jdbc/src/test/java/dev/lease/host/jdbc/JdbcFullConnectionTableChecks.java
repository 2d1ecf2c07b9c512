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
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.tck.Stalls;
import dev.lease.tck.history.HistoryChecker;
import dev.lease.tck.history.RecordingLeaseHost;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A waiter that gives up while the database's connection table is full (Host:
 * interruption, Host: withdrawal): its withdrawal cannot open a connection outside the
 * pool, and must still be written, over one of the pool's connections, before it returns,
 * so that the holder's release hands the key to the waiter behind it, not to the one that
 * left. On a server of the test's own with a small {@code max_connections}, filled by
 * plain connections the test opens; the shared servers are never filled.
 *
 * @author Lease contributors
 */
abstract class JdbcFullConnectionTableChecks {

	private static final Duration HOLDER_TERM = Duration.ofSeconds(60);

	// The term a ghost grant would stand for: the waiter behind would wait all of it.
	private static final Duration WAITER_TERM = Duration.ofSeconds(10);

	// How far the host's clock (the same machine's) and a grant made by the release may
	// lie from the release's answer: far less than the ghost's term.
	private static final Duration AT_THE_RELEASE = Duration.ofSeconds(2);

	// An interrupted waiter returns within this, never at its bound or the pool's
	// connection timeout.
	private static final Duration PROMPT = Duration.ofSeconds(5);

	private static final int POOL = 4;

	private String url;

	private HikariDataSource pool;

	private Stalls stalls;

	private JdbcLeaseHost host;

	private final List<Connection> fillers = new ArrayList<>();

	// Start a server of the test's own with a small connection table, and answer its JDBC
	// URL.
	abstract String startServer();

	abstract void stopServer();

	abstract String platform();

	// Whether the server refused a connection because its connection table is full.
	abstract boolean full(SQLException refusal);

	@BeforeEach
	void start() {
		this.stalls = new Stalls();
		this.url = startServer();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(this.url);
		config.setMaximumPoolSize(POOL);
		config.setMinimumIdle(POOL);
		config.setConnectionTimeout(TimeUnit.SECONDS.toMillis(30));
		config.setPoolName("lease-test-full-" + UUID.randomUUID().toString().substring(0, 8));
		this.pool = JdbcTestServers.withSchema(new HikariDataSource(config), platform());
		this.host = new JdbcLeaseHost(this.pool);
	}

	@AfterEach
	void stop() throws Exception {
		this.stalls.close();
		emptyConnectionTable();
		this.host.close();
		this.pool.close();
		stopServer();
	}

	@Test
	@DisplayName("Host: interruption, Host: withdrawal: a waiter interrupted while the connection table is full withdraws over the pool and throws InterruptedException; the release hands the key to the waiter behind it")
	void waiterInterruptedWhileTheConnectionTableIsFullIsWithdrawn() throws Exception {
		RecordingLeaseHost recording = new RecordingLeaseHost(this.host);
		LeaseKey key = LeaseKey.of("full-table:" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("holder:" + UUID.randomUUID());
		assertThat(recording.take(key, holder, HOLDER_TERM)).isInstanceOf(Taken.class);
		Waiter leaving = new Waiter(recording, key, "leaving");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> recording.observeQueued(key, leaving.holder, () -> queued(key) == 1));
		Waiter behind = new Waiter(recording, key, "behind");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> recording.observeQueued(key, behind.holder, () -> queued(key) == 2));
		fillConnectionTable();
		leaving.interruptAndJoin(Duration.ofSeconds(60));
		assertThat(recording.release(key, holder)).isInstanceOf(Released.class);
		Instant released = Instant.now();
		behind.thread.join(TimeUnit.SECONDS.toMillis(60));
		emptyConnectionTable();
		// The checker's tolerance grows by the time the test lost to the machine.
		List<String> violations = new HistoryChecker(Duration.ofMillis(50),
				Duration.ofSeconds(1).plus(this.stalls.lost()), Duration.ZERO)
			.interruptsKnown()
			.violations(recording.history());
		SoftAssertions.assertSoftly((softly) -> {
			softly.assertThat(behind.outcome.get()).as("the waiter behind's outcome").isInstanceOf(Taken.class);
			if (behind.outcome.get() instanceof Taken taken) {
				softly.assertThat(taken.lease().expiresAt().minus(WAITER_TERM))
					.as("when the waiter behind was granted the key: at the holder's release, not after a ghost's term")
					.isBefore(released.plus(AT_THE_RELEASE));
			}
			softly.assertThat(leaving.tookToReturn())
				.as("the interrupted waiter's time from its interrupt to its return")
				.isLessThanOrEqualTo(PROMPT);
			softly.assertThat(leaving.outcome.get())
				.as("how the interrupt reached the interrupted waiter")
				.isInstanceOf(InterruptedException.class);
			softly.assertThat(violations).as("the history checker's violations").isEmpty();
		});
	}

	@Test
	@DisplayName("Host: interruption: a take cancelled while the connection table is full is withdrawn before cancel returns; a new holder takes the key at the release")
	void takeCancelledWhileTheConnectionTableIsFullIsWithdrawn() throws Exception {
		LeaseKey key = LeaseKey.of("full-table-async:" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("holder:" + UUID.randomUUID());
		assertThat(this.host.take(key, holder, HOLDER_TERM)).isInstanceOf(Taken.class);
		CompletableFuture<TakeResult> cancelled = this.host.async()
			.take(key, LeaseHolder.of("cancelled:" + UUID.randomUUID()), WAITER_TERM);
		await().atMost(Duration.ofSeconds(30)).until(() -> queued(key) == 1);
		fillConnectionTable();
		long cancelling = System.nanoTime();
		boolean answered = cancelled.cancel(true);
		Duration tookToCancel = Duration.ofNanos(System.nanoTime() - cancelling);
		assertThat(this.host.release(key, holder)).isInstanceOf(Released.class);
		TryTakeResult newHolder = this.host.tryTake(key, LeaseHolder.of("new:" + UUID.randomUUID()), WAITER_TERM);
		emptyConnectionTable();
		SoftAssertions.assertSoftly((softly) -> {
			softly.assertThat(newHolder).as("a new holder's try take after the release").isInstanceOf(Taken.class);
			softly.assertThat(answered).as("cancel(true)").isTrue();
			softly.assertThat(tookToCancel).as("the time cancel(true) took").isLessThanOrEqualTo(PROMPT);
			softly.assertThatThrownBy(cancelled::join)
				.as("the cancelled future")
				.isInstanceOf(CancellationException.class);
		});
	}

	// Open plain connections until the server refuses one: the pool's four (and on
	// PostgreSQL the host's LISTEN connection) stay open, the host can open no other.
	private void fillConnectionTable() throws SQLException {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.pool.getHikariPoolMXBean().getTotalConnections() == POOL);
		while (this.fillers.size() < 100) {
			try {
				this.fillers.add(DriverManager.getConnection(this.url));
			}
			catch (SQLException ex) {
				assertThat(full(ex)).as("refused for a full connection table: " + ex).isTrue();
				return;
			}
		}
		throw new IllegalStateException("The connection table did not fill");
	}

	private void emptyConnectionTable() throws SQLException {
		for (Connection filler : this.fillers) {
			filler.close();
		}
		this.fillers.clear();
	}

	private int queued(LeaseKey key) {
		Integer count = new JdbcTemplate(this.pool).queryForObject(
				"SELECT COUNT(*) FROM LEASE_WAITERS WHERE LEASE_KEY = ?", Integer.class, (Object) key.bytes());
		return (count != null) ? count : 0;
	}

	/**
	 * A take on its own thread, what it answered or threw, and when.
	 */
	private static final class Waiter {

		final LeaseHolder holder;

		final AtomicReference<Object> outcome = new AtomicReference<>();

		final Thread thread;

		private volatile long interruptedAt;

		private volatile long returnedAt;

		Waiter(LeaseHost host, LeaseKey key, String name) {
			this.holder = LeaseHolder.of(name + ":" + UUID.randomUUID());
			this.thread = new Thread(() -> {
				try {
					this.outcome.set(host.take(key, this.holder, WAITER_TERM));
				}
				catch (Throwable ex) {
					this.outcome.set(ex);
				}
				finally {
					this.returnedAt = System.nanoTime();
				}
			}, "lease-test-" + name);
			this.thread.start();
		}

		void interruptAndJoin(Duration atMost) throws InterruptedException {
			this.interruptedAt = System.nanoTime();
			this.thread.interrupt();
			this.thread.join(atMost.toMillis());
		}

		Duration tookToReturn() {
			return Duration.ofNanos(this.returnedAt - this.interruptedAt);
		}

	}

}
