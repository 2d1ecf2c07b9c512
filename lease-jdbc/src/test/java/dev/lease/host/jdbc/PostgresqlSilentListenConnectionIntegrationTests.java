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

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.tck.LeaseHostProbes;
import dev.lease.tck.Stalls;
import dev.lease.test.support.JdbcTestServers;
import dev.lease.test.support.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the {@code LISTEN} connection of a {@link JdbcLeaseHost} on PostgreSQL when
 * the network, not the server, fails it: only the waiting host's listening connection
 * goes through a {@link TcpProxy}, which drops every byte silently (a NAT or firewall
 * that forgot the connection) or is slow to connect. Two hosts share one database: the
 * other host holds and releases, this host's callers wait.
 *
 * @author Lease contributors
 */
class PostgresqlSilentListenConnectionIntegrationTests {

	// The waiters' term: their own re-ask comes at half of it, far later than any bound
	// checked here.
	private static final Duration TERM = Duration.ofSeconds(30);

	// Generous: how long a take started on another thread may need to stand in the queue.
	private static final Duration QUEUED_WITHIN = Duration.ofSeconds(30);

	// How soon a silent listening connection is found out, as the host documents it,
	// and what a handoff after that takes: a poll and a pick-up, under this machine's
	// load.
	private static final Duration SILENCE_BOUND = Duration.ofMillis(2500);

	private static final Duration HANDOFF_MARGIN = Duration.ofMillis(1500);

	private final String application = "lease-silent-" + UUID.randomUUID();

	private final LeaseKey key = LeaseKey.of("silent-" + UUID.randomUUID());

	private TcpProxy proxy;

	private HikariDataSource otherPool;

	private JdbcLeaseHost otherHost;

	private HikariDataSource pool;

	private JdbcLeaseHost host;

	@BeforeEach
	void start() throws Exception {
		String url = JdbcTestServers.postgresUrl();
		URI server = URI.create(url.substring("jdbc:".length()));
		this.proxy = TcpProxy.to(server.getPort());
		String proxied = url.replaceFirst("//[^/]+/", "//127.0.0.1:" + this.proxy.port() + "/")
				+ ((url.contains("?") ? "&" : "?") + "ApplicationName=" + this.application);
		this.otherPool = JdbcTestServers.postgres();
		this.otherHost = new JdbcLeaseHost(this.otherPool);
		this.pool = JdbcTestServers.pool(url, "postgresql");
		this.host = JdbcLeaseHost.builder(this.pool)
			.listenDataSource(new SimpleDriverDataSource(new org.postgresql.Driver(), proxied))
			.build();
	}

	@AfterEach
	void stop() {
		this.proxy.close();
		this.host.close();
		this.otherHost.close();
		this.pool.close();
		this.otherPool.close();
	}

	@Test
	@DisplayName("Host: waking: a LISTEN connection gone silent is found out and replaced, and a handoff made while it is silent reaches its waiter within the bound")
	void silentListenConnectionIsReplaced() throws Exception {
		assertThat(handoffWakesTheWaiter()).as("a handoff while the listening connection answers")
			.isLessThan(Duration.ofSeconds(2));
		// The waiter may have been woken by a poll: the listening connection opens on the
		// host's own thread, and on a busy machine a check that waited past its bound
		// replaces it (a second later), so it is awaited, not read once.
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(listenerPids()).as("the host's LISTEN connection, by its ApplicationName")
				.hasSize(1));
		List<Integer> before = listenerPids();
		this.proxy.blackhole();
		// The first handoff comes before the silence can be noticed, the second after.
		Duration bound = SILENCE_BOUND.plus(HANDOFF_MARGIN);
		assertThat(handoffWakesTheWaiter()).as("a handoff as the listening connection goes silent").isLessThan(bound);
		assertThat(handoffWakesTheWaiter()).as("a handoff while the listening connection is silent").isLessThan(bound);
		this.proxy.restore();
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(listenerPids()).hasSize(1).doesNotContainAnyElementsOf(before));
		assertThat(handoffWakesTheWaiter()).as("a handoff once the listening connection is replaced")
			.isLessThan(Duration.ofSeconds(2));
	}

	@Test
	@DisplayName("Non-goal 3: the first takes on a host are queued in arrival order however long its LISTEN connection takes to open")
	void firstTakesWhileTheListenConnectionOpensAreQueuedInArrivalOrder() throws Exception {
		LeaseHolder first = LeaseHolder.of("first-" + UUID.randomUUID());
		LeaseHolder earlier = LeaseHolder.of("earlier-" + UUID.randomUUID());
		LeaseHolder later = LeaseHolder.of("later-" + UUID.randomUUID());
		this.proxy.connectDelay(Duration.ofSeconds(4));
		assertThat(this.otherHost.tryTake(this.key, first, Duration.ofSeconds(60))).isInstanceOf(Taken.class);
		CompletableFuture<TakeResult> earlierTake = take(earlier);
		LeaseHostProbes.awaitQueued(this.host, this.key, earlier, QUEUED_WITHIN);
		CompletableFuture<TakeResult> laterTake = take(later);
		// both are queued, the listening connection still opening
		LeaseHostProbes.awaitQueued(this.host, this.key, later, QUEUED_WITHIN);
		assertThat(this.otherHost.release(this.key, first)).isInstanceOf(Released.class);
		CompletableFuture.anyOf(earlierTake, laterTake).get(20, TimeUnit.SECONDS);
		assertThat(laterTake).as("the caller that arrived later").isNotDone();
		assertThat(earlierTake.get()).as("the caller that arrived first").isInstanceOf(Taken.class);
		assertThat(this.host.release(this.key, earlier)).isInstanceOf(Released.class);
		assertThat(laterTake.get(20, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
		assertThat(this.host.release(this.key, later)).isInstanceOf(Released.class);
	}

	// The other host holds the key; this host's waiter, queued, would sleep for half its
	// term unless a wake-up reached it. Answers the time from the release to the
	// waiter's answer.
	private Duration handoffWakesTheWaiter() throws Exception {
		LeaseHolder first = LeaseHolder.of("first-" + UUID.randomUUID());
		LeaseHolder waiter = LeaseHolder.of("waiter-" + UUID.randomUUID());
		assertThat(this.otherHost.tryTake(this.key, first, Duration.ofSeconds(60))).isInstanceOf(Taken.class);
		CompletableFuture<TakeResult> waiting = take(waiter);
		LeaseHostProbes.awaitQueued(this.host, this.key, waiter, QUEUED_WITHIN);
		try (Stalls stalls = new Stalls()) {
			assertThat(this.otherHost.release(this.key, first)).isInstanceOf(Released.class);
			long released = System.nanoTime();
			TakeResult answer = waiting.get(TERM.toSeconds(), TimeUnit.SECONDS);
			// Less the time the machine took from the test meanwhile: the bounds are the
			// host's, not the machine's.
			Duration woken = Duration.ofNanos(System.nanoTime() - released).minus(stalls.lost());
			assertThat(answer).isInstanceOf(Taken.class);
			assertThat(this.host.release(this.key, waiter)).isInstanceOf(Released.class);
			return woken;
		}
	}

	private CompletableFuture<TakeResult> take(LeaseHolder holder) {
		return CompletableFuture.supplyAsync(() -> {
			try {
				return this.host.take(this.key, holder, TERM);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		});
	}

	// The backends opened under this test's ApplicationName: the listening connection's.
	private List<Integer> listenerPids() {
		return new JdbcTemplate(this.otherPool).queryForList(
				"select pid from pg_stat_activity where application_name = ?", Integer.class, this.application);
	}

}
