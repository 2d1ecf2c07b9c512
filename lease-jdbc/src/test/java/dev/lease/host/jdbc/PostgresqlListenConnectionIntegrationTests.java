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
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.tck.LeaseHostProbes;
import dev.lease.tck.Stalls;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the {@code LISTEN} connection of a {@link JdbcLeaseHost} on PostgreSQL: it is
 * opened outside the application's Hikari pool, so the pool neither reports it as a leak
 * nor runs one connection short, and it is re-opened when its backend is terminated.
 *
 * @author Lease contributors
 */
class PostgresqlListenConnectionIntegrationTests {

	private static final int POOL_SIZE = 4;

	// Hikari's smallest leak detection threshold.
	private static final long LEAK_THRESHOLD_MILLIS = 2000;

	private final String application = "lease-listen-" + UUID.randomUUID();

	private final LeaseKey key = LeaseKey.of("listen-" + UUID.randomUUID());

	private final ListAppender<ILoggingEvent> poolLog = new ListAppender<>();

	// Hikari logs through SLF4J, here bound to Logback.
	private final Logger hikariLogger = (Logger) org.slf4j.LoggerFactory.getLogger("com.zaxxer.hikari");

	private HikariDataSource pool;

	private JdbcLeaseHost host;

	private HikariDataSource otherPool;

	private JdbcLeaseHost otherHost;

	@BeforeEach
	void start() {
		this.poolLog.start();
		this.hikariLogger.setLevel(Level.WARN);
		this.hikariLogger.addAppender(this.poolLog);
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(JdbcTestServers.postgresUrl());
		config.addDataSourceProperty("ApplicationName", this.application);
		config.setMaximumPoolSize(POOL_SIZE);
		config.setLeakDetectionThreshold(LEAK_THRESHOLD_MILLIS);
		config.setPoolName("lease-listen-" + UUID.randomUUID().toString().substring(0, 8));
		this.pool = JdbcTestServers.withSchema(new HikariDataSource(config), "postgresql");
		this.host = new JdbcLeaseHost(this.pool);
		this.otherPool = JdbcTestServers.pool(JdbcTestServers.postgresUrl(), "postgresql");
		this.otherHost = new JdbcLeaseHost(this.otherPool);
	}

	@AfterEach
	void stop() {
		this.host.close();
		this.otherHost.close();
		this.pool.close();
		this.otherPool.close();
		this.hikariLogger.detachAppender(this.poolLog);
		this.hikariLogger.setLevel(null);
	}

	@Test
	@DisplayName("The LISTEN connection is no connection of the pool: no leak is reported and every pool connection is idle")
	void listenConnectionIsOutsideThePool() throws Exception {
		assertThat(handoffWakesTheWaiter(this.host)).isInstanceOf(Taken.class);
		// On a loaded machine the listener may be re-opening a connection it gave up as
		// silent (a check unanswered within 1.5 s): one stands again within seconds.
		await().atMost(Duration.ofSeconds(15))
			.untilAsserted(() -> assertThat(listenerPids()).as("the host's LISTEN connection, by its ApplicationName")
				.hasSize(1));
		Thread.sleep(LEAK_THRESHOLD_MILLIS + 1500);
		assertThat(this.poolLog.list).extracting(ILoggingEvent::getFormattedMessage)
			.as("what the pool logged at WARN or above")
			.noneMatch((message) -> message.contains("leak"));
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.pool.getHikariPoolMXBean().getIdleConnections())
				.as("idle connections of the pool, whose size is " + POOL_SIZE)
				.isEqualTo(POOL_SIZE));
	}

	@Test
	@DisplayName("A terminated LISTEN backend is re-opened, and a handoff from another host still wakes the waiter promptly")
	void terminatedListenConnectionIsReopened() throws Exception {
		assertThat(handoffWakesTheWaiter(this.host)).isInstanceOf(Taken.class);
		List<Integer> before = listenerPids();
		assertThat(before).hasSize(1);
		new JdbcTemplate(this.otherPool).queryForObject("select pg_terminate_backend(?)", Boolean.class, before.get(0));
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(listenerPids()).hasSize(1).doesNotContainAnyElementsOf(before));
		assertThat(handoffWakesTheWaiter(this.host)).isInstanceOf(Taken.class);
	}

	// Another host holds the key for long; this host's waiter, queued while its listener
	// listens, would sleep for half its duration unless the other host's release notifies
	// it.
	private TakeResult handoffWakesTheWaiter(JdbcLeaseHost waitingHost) throws Exception {
		LeaseHolder first = LeaseHolder.of("first-" + UUID.randomUUID());
		LeaseHolder waiter = LeaseHolder.of("waiter-" + UUID.randomUUID());
		assertThat(this.otherHost.tryTake(this.key, first, Duration.ofSeconds(60))).isInstanceOf(Taken.class);
		CompletableFuture<TakeResult> waiting = CompletableFuture.supplyAsync(() -> {
			try {
				return waitingHost.take(this.key, waiter, Duration.ofSeconds(60));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		});
		LeaseHostProbes.awaitQueued(waitingHost, this.key, waiter, Duration.ofSeconds(30));
		TakeResult answer;
		try (Stalls stalls = new Stalls()) {
			assertThat(this.otherHost.release(this.key, first)).isInstanceOf(Released.class);
			long released = System.nanoTime();
			answer = waiting.get(30, TimeUnit.SECONDS);
			// Less the time the machine took from the test meanwhile.
			Duration woken = Duration.ofNanos(System.nanoTime() - released).minus(stalls.lost());
			assertThat(woken).as("time from the other host's release to the waiter's answer")
				.isLessThan(Duration.ofSeconds(2));
		}
		assertThat(waitingHost.release(this.key, waiter)).isInstanceOf(Released.class);
		return answer;
	}

	// The backends opened under this test's ApplicationName that are not the pool's own.
	// Not told apart by their last statement: the LISTEN connection also deletes the
	// waiter rows its waiters picked up, so its last statement is not always LISTEN.
	private List<Integer> listenerPids() throws SQLException {
		List<Integer> poolPids = new ArrayList<>();
		List<Connection> borrowed = new ArrayList<>();
		try {
			for (int i = 0; i < POOL_SIZE; i++) {
				Connection connection = this.pool.getConnection();
				borrowed.add(connection);
				poolPids.add(new JdbcTemplate(new SingleConnectionDataSource(connection, true))
					.queryForObject("select pg_backend_pid()", Integer.class));
			}
		}
		finally {
			for (Connection connection : borrowed) {
				connection.close();
			}
		}
		List<Integer> pids = new JdbcTemplate(this.otherPool).queryForList(
				"select pid from pg_stat_activity where application_name = ?", Integer.class, this.application);
		pids.removeAll(poolPids);
		return pids;
	}

}
