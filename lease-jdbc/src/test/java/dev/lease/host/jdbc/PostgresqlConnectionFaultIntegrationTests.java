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
import java.util.Collection;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.NotHeld;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.tck.LeaseHostProbes;
import dev.lease.tck.faults.ConnectionFaultScenarios;
import dev.lease.tck.history.HistoryAssertions;
import dev.lease.tck.history.RecordingLeaseHost;
import dev.lease.test.support.JdbcTestServers;
import dev.lease.test.support.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JdbcLeaseHost} on PostgreSQL when its connections fail mid-operation:
 * cut through a TCP proxy on the loopback interface, or their backends terminated with
 * {@code pg_terminate_backend}. The caller gets {@link LeaseHostException} or a true
 * answer, and the database holds either the whole change or none of it. Every call goes
 * through one {@link RecordingLeaseHost}; each test ends with the history checked against
 * the atom and no row left for its key.
 *
 * @author Lease contributors
 */
class PostgresqlConnectionFaultIntegrationTests extends ConnectionFaultScenarios {

	private static HikariDataSource directPool;

	private static JdbcLeaseHost directHost;

	private HikariDataSource proxiedPool;

	private JdbcLeaseHost proxiedHost;

	@BeforeAll
	static void startDirectHost() {
		directPool = JdbcTestServers.postgres();
		directHost = new JdbcLeaseHost(directPool);
	}

	@AfterAll
	static void stopDirectHost() {
		directHost.close();
		directPool.close();
	}

	@BeforeEach
	void connectThroughProxy() throws Exception {
		String url = JdbcTestServers.postgresUrl();
		URI server = URI.create(url.substring("jdbc:".length()));
		this.proxy = TcpProxy.to(server.getPort());
		String proxied = url.replaceFirst("//[^/]+/", "//127.0.0.1:" + this.proxy.port() + "/")
				+ ((url.contains("?") ? "&" : "?") + "socketTimeout=5&connectTimeout=5");
		this.proxiedPool = JdbcTestServers.pool(proxied, "postgresql", "lease-fault-" + UUID.randomUUID());
		this.proxiedPool.setConnectionTimeout(5000);
		this.proxiedHost = new JdbcLeaseHost(this.proxiedPool);
		this.direct = new RecordingLeaseHost(directHost);
		this.host = this.direct.alongside(this.proxiedHost);
	}

	@AfterEach
	void disconnect() {
		this.proxy.close();
		this.proxiedHost.close();
		this.proxiedPool.close();
	}

	@Test
	@DisplayName("A waiter whose backends are terminated (pg_terminate_backend) gets the key or LeaseHostException, and leaves nothing held")
	void waiterWhoseBackendsAreTerminatedLeavesNothingHeld() throws Exception {
		LeaseHolder first = LeaseHolder.of("first");
		this.direct.tryTake(this.key, first, Duration.ofSeconds(3));
		CompletableFuture<TakeResult> waiting = CompletableFuture.supplyAsync(() -> {
			try {
				return this.host.take(this.key, this.holder, TERM);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		});
		// queued, counted without entering the checked history
		LeaseHostProbes.awaitWaiting(this.proxiedHost, this.key, 1, Duration.ofSeconds(30));
		String application = this.proxiedPool.getDataSourceProperties().getProperty("ApplicationName");
		int terminated = new JdbcTemplate(directPool).queryForObject(
				"select count(pg_terminate_backend(pid)) from pg_stat_activity where application_name = ?",
				Integer.class, application);
		assertThat(terminated).as("backends of the waiting host").isPositive();
		this.direct.release(this.key, first);
		TakeResult answer;
		try {
			answer = waiting.get(TERM.toSeconds(), TimeUnit.SECONDS);
		}
		catch (ExecutionException ex) {
			assertThat(ex.getCause()).isInstanceOf(LeaseHostException.class);
			answer = null;
		}
		if (answer instanceof Taken) {
			assertThat(this.host.release(this.key, this.holder)).isNotInstanceOf(NotHeld.class);
		}
		// A waiter whose take failed must not be left holding the key; the history says
		// how.
		assertThat(this.direct.remaining(this.key, this.holder))
			.as(() -> "the failed waiter holds nothing; history: " + this.direct.history())
			.isEmpty();
		HistoryAssertions.assertFreeForAnother(this.direct, this.key);
		assertAllowedAndNothingLeft();
	}

	@Override
	protected Callable<? extends Collection<?>> leftovers() {
		return () -> JdbcTestServers.rows(directPool, this.key);
	}

}
