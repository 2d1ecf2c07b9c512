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

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.host.Withdrawals;
import dev.lease.tck.faults.SilencedStoreWaiters;
import dev.lease.test.support.JdbcTestServers;
import dev.lease.test.support.TcpProxy;

/**
 * Checks that a waiting take returns by its bound plus {@link Withdrawals#ANSWER_MARGIN}
 * when the database stops answering (Host: silence), on a server of the test's own, which
 * each subclass starts: with the host's answer, or {@link LeaseHostException} when none
 * can be known, blocking and non-blocking, whether the server is stopped or every byte to
 * it is dropped. The pool is Hikari as Spring Boot configures it, whose connection
 * timeout (30 s) is far past the bound; the driver's socket reads have no timeout.
 *
 * @author Lease contributors
 */
abstract class JdbcSilentDatabaseChecks {

	private TcpProxy proxy;

	private HikariDataSource directPool;

	private DataSource proxiedPool;

	private JdbcLeaseHost direct;

	private JdbcLeaseHost host;

	// Start the server: its port.
	abstract int startServer();

	// Stop it, its connections closed.
	abstract void stopServer();

	abstract String url(int port);

	abstract String platform();

	@BeforeEach
	void start() throws Exception {
		int port = startServer();
		this.proxy = TcpProxy.to(port);
		this.directPool = JdbcTestServers.withSchema(pool(url(port)), platform());
		this.proxiedPool = proxiedPool(url(this.proxy.port()));
		this.direct = new JdbcLeaseHost(this.directPool);
		this.host = new JdbcLeaseHost(this.proxiedPool);
	}

	// The pool whose waiters the fault silences: Hikari as Spring Boot configures it.
	DataSource proxiedPool(String url) {
		return pool(url);
	}

	void closeProxiedPool(DataSource pool) {
		((HikariDataSource) pool).close();
	}

	// How long, on top of the margin, the pool may keep a question: a pooled connection
	// idle for a while is checked before Hikari lends it, and on a silent database that
	// check waits for the pool's validation timeout.
	Duration lendingAllowance() {
		return Duration.ofMillis(((HikariDataSource) this.proxiedPool).getValidationTimeout());
	}

	// A pool as Spring Boot configures one: its connection timeout is 30 s.
	private static HikariDataSource pool(String url) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		return new HikariDataSource(config);
	}

	@AfterEach
	void stop() throws Exception {
		this.proxy.close();
		// Closed together: each waits for its clean-up's question to give up.
		CompletableFuture<Void> closed = CompletableFuture.runAsync(this.host::close);
		this.direct.close();
		closed.get(60, TimeUnit.SECONDS);
		closeProxiedPool(this.proxiedPool);
		this.directPool.close();
		stopServer();
	}

	@Test
	@DisplayName("Host: silence. With every byte to the database dropped, each waiting take returns by its bound plus the margin and the pool's allowance")
	void waitersReturnByTheirBoundWhenTheDatabaseIsSilent() throws Exception {
		SilencedStoreWaiters.assertEachAnswersByItsBound(this.direct, this.host, this::queued, this.proxy::blackhole,
				lendingAllowance());
	}

	@Test
	@DisplayName("Host: silence. With the database stopped under them, each waiting take returns by its bound plus the margin")
	void waitersReturnByTheirBoundWhenTheDatabaseStops() throws Exception {
		SilencedStoreWaiters.assertEachAnswersByItsBound(this.direct, this.host, this::queued, this::stopServer,
				Duration.ZERO);
	}

	private long queued(LeaseKey key) {
		Long count = new JdbcTemplate(this.directPool)
			.queryForObject("SELECT COUNT(*) FROM LEASE_WAITERS WHERE LEASE_KEY = ?", Long.class, (Object) key.bytes());
		return (count != null) ? count : 0;
	}

}
