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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.host.Withdrawals;
import dev.lease.tck.Stalls;
import dev.lease.test.support.JdbcTestServers;
import dev.lease.test.support.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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

	// The holder's term: the waiters' bound, the arrival term, is its end (Operation 3).
	private static final Duration HOLD = Duration.ofSeconds(5);

	private static final Duration TERM = Duration.ofSeconds(60);

	private static final int BLOCKING = 4;

	private static final int ASYNC = 20;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private TcpProxy proxy;

	private HikariDataSource directPool;

	private HikariDataSource proxiedPool;

	private JdbcLeaseHost direct;

	private JdbcLeaseHost host;

	private Stalls stalls;

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
		this.proxiedPool = pool(url(this.proxy.port()));
		this.direct = new JdbcLeaseHost(this.directPool);
		this.host = new JdbcLeaseHost(this.proxiedPool);
		this.stalls = new Stalls();
	}

	// A pool as Spring Boot configures one: its connection timeout is 30 s.
	private static HikariDataSource pool(String url) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		return new HikariDataSource(config);
	}

	@AfterEach
	void stop() throws Exception {
		this.stalls.close();
		this.threads.shutdownNow();
		this.proxy.close();
		// Closed together: each waits for its clean-up's question to give up.
		CompletableFuture<Void> closed = CompletableFuture.runAsync(this.host::close);
		this.direct.close();
		closed.get(60, TimeUnit.SECONDS);
		this.proxiedPool.close();
		this.directPool.close();
		stopServer();
	}

	@Test
	@DisplayName("Host: silence. With every byte to the database dropped, each waiting take returns by its bound plus the margin and the pool's validation timeout")
	void waitersReturnByTheirBoundWhenTheDatabaseIsSilent() throws Exception {
		// A pooled connection idle for a while is checked before it is lent, and on a
		// silent database that check waits for the pool's validation timeout.
		assertWaitersReturnByTheirBound(this.proxy::blackhole,
				Duration.ofMillis(this.proxiedPool.getValidationTimeout()));
	}

	@Test
	@DisplayName("Host: silence. With the database stopped under them, each waiting take returns by its bound plus the margin")
	void waitersReturnByTheirBoundWhenTheDatabaseStops() throws Exception {
		assertWaitersReturnByTheirBound(this::stopServer, Duration.ZERO);
	}

	private void assertWaitersReturnByTheirBound(Runnable fault, Duration pool) throws Exception {
		LeaseKey key = LeaseKey.of("silent");
		assertThat(this.direct.tryTake(key, LeaseHolder.of("holder"), HOLD)).isInstanceOf(Taken.class);
		// Every bound is at most this: the holder's grant ends no later.
		long boundsBy = System.nanoTime() + HOLD.toNanos();
		List<CompletableFuture<Object>> answers = new ArrayList<>();
		for (int i = 0; i < BLOCKING; i++) {
			LeaseHolder holder = LeaseHolder.of("blocking-" + i);
			answers.add(CompletableFuture.supplyAsync(() -> outcome(() -> this.host.take(key, holder, TERM)),
					this.threads));
		}
		for (int i = 0; i < ASYNC; i++) {
			answers.add(this.host.async()
				.take(key, LeaseHolder.of("async-" + i), TERM)
				.handle((result, failure) -> (failure != null) ? failure : result));
		}
		JdbcTemplate jdbc = new JdbcTemplate(this.directPool);
		await().atMost(HOLD)
			.until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM LEASE_WAITERS WHERE LEASE_KEY = ?", Integer.class,
					(Object) key.bytes()) == BLOCKING + ASYNC);
		fault.run();
		for (CompletableFuture<Object> answer : answers) {
			Object outcome = answer.get(120, TimeUnit.SECONDS);
			assertThat(outcome).as("a waiter's answer").isInstanceOfAny(TakeResult.class, LeaseHostException.class);
		}
		Duration late = Duration.ofNanos(System.nanoTime() - boundsBy);
		assertThat(late).as("the last answer past the latest bound")
			.isLessThanOrEqualTo(Withdrawals.ANSWER_MARGIN.plus(pool).plus(this.stalls.lost()));
	}

	private Object outcome(Take take) {
		try {
			return take.run();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return ex;
		}
		catch (RuntimeException ex) {
			return ex;
		}
	}

	private interface Take {

		TakeResult run() throws InterruptedException;

	}

}
