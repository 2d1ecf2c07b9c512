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
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.tck.LeaseHostProbes;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a PostgreSQL {@link JdbcLeaseHost} sends {@code NOTIFY} only for handoffs to
 * another host's waiters: its own are woken in the JVM after the commit, and a
 * notification would cost the commit the server's notification-queue lock and the host's
 * listener a wake-up.
 *
 * @author Lease contributors
 */
class PostgresqlLocalHandoffIntegrationTests {

	private static final Duration TERM = Duration.ofSeconds(60);

	private HikariDataSource pool;

	private HikariDataSource otherPool;

	private JdbcLeaseHost host;

	private JdbcLeaseHost otherHost;

	@BeforeEach
	void start() {
		this.pool = JdbcTestServers.postgres();
		this.otherPool = JdbcTestServers.pool(JdbcTestServers.postgresUrl(), "postgresql");
		this.host = new JdbcLeaseHost(this.pool);
		this.otherHost = new JdbcLeaseHost(this.otherPool);
	}

	@AfterEach
	void stop() {
		this.host.close();
		this.otherHost.close();
		this.pool.close();
		this.otherPool.close();
	}

	@Test
	@DisplayName("A handoff to a waiter of the releasing host sends no NOTIFY; one to another host's waiter does")
	void onlyHandoffsToOtherHostsNotify() throws Exception {
		LeaseKey local = LeaseKey.of("local-handoff-" + UUID.randomUUID());
		LeaseKey remote = LeaseKey.of("remote-handoff-" + UUID.randomUUID());
		try (Connection listening = this.otherPool.getConnection()) {
			try (Statement statement = listening.createStatement()) {
				statement.execute("LISTEN lease_keys");
			}
			assertThat(handOff(local, this.host)).isInstanceOf(Taken.class);
			assertThat(handOff(remote, this.otherHost)).isInstanceOf(Taken.class);
			// Notifications arrive in commit order: one sent for the first handoff would
			// come before the second's.
			List<LeaseKey> notified = new ArrayList<>();
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			while (!notified.contains(remote) && System.nanoTime() < deadline) {
				PGNotification[] received = listening.unwrap(PGConnection.class).getNotifications(100);
				for (PGNotification notification : (received != null) ? received : new PGNotification[0]) {
					PostgresqlHandoffMessage message = PostgresqlHandoffMessage.decode(notification.getParameter());
					if (message != null && (message.key().equals(local) || message.key().equals(remote))) {
						notified.add(message.key());
					}
				}
			}
			assertThat(notified).as("the keys whose handoffs were notified, in order").containsExactly(remote);
		}
	}

	// The releasing host hands the key to a waiter of waitingHost, which answers it.
	private TakeResult handOff(LeaseKey key, JdbcLeaseHost waitingHost) throws Exception {
		LeaseHolder first = LeaseHolder.of("first-" + UUID.randomUUID());
		LeaseHolder waiter = LeaseHolder.of("waiter-" + UUID.randomUUID());
		assertThat(this.host.tryTake(key, first, TERM)).isInstanceOf(Taken.class);
		CompletableFuture<TakeResult> waiting = CompletableFuture.supplyAsync(() -> {
			try {
				return waitingHost.take(key, waiter, TERM);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		});
		LeaseHostProbes.awaitQueued(waitingHost, key, waiter, Duration.ofSeconds(30));
		assertThat(this.host.release(key, first)).isInstanceOf(Released.class);
		TakeResult answer = waiting.get(30, TimeUnit.SECONDS);
		assertThat(waitingHost.release(key, waiter)).isInstanceOf(Released.class);
		return answer;
	}

}
