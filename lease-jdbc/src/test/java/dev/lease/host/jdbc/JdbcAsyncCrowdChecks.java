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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.AsyncLeaseHost;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A crowd of non-blocking callers of one key on a pool the size of Spring Boot's default
 * (10): as a reactive {@code @Leased} method meets 200 subscribers at once. Each is
 * served, in the order the database queued them, one at a time, and the pool is never
 * exhausted, so none of them waits for a connection: the crowd enters the database
 * together rather than with a connection each waiting for the key's lock, a waiting take
 * holds no connection, and so a release is never queued for a connection behind takes.
 *
 * @author Lease contributors
 */
abstract class JdbcAsyncCrowdChecks {

	private static final int CALLERS = 200;

	private static final int POOL = 10;

	// Long enough for every caller to be served on a busy machine: the check is that
	// all are, in order, not how fast.
	private static final Duration TERM = Duration.ofSeconds(60);

	private static final Executor WORK = CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS);

	private HikariDataSource pool;

	private JdbcLeaseHost host;

	private final AtomicInteger inFlight = new AtomicInteger();

	private final AtomicInteger mostAtOnce = new AtomicInteger();

	private final List<String> grants = new CopyOnWriteArrayList<>();

	private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();

	// The most connections the pool saw in use at once: below its size, nobody waited
	// for one to be returned. (Its count of threads awaiting a connection counts every
	// borrow for the moment it looks, so it is not read.)
	private final AtomicInteger mostInUse = new AtomicInteger();

	abstract String url();

	abstract String platform();

	@BeforeEach
	void startHost() {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url());
		config.setMaximumPoolSize(POOL);
		config.setPoolName("lease-crowd-" + platform());
		this.pool = JdbcTestServers.withSchema(new HikariDataSource(config), platform());
		this.host = new JdbcLeaseHost(this.pool);
		HikariPoolMXBean pool = this.pool.getHikariPoolMXBean();
		// A pool still opening its connections keeps the first callers waiting for them.
		await().atMost(Duration.ofSeconds(60)).until(() -> pool.getTotalConnections() == POOL);
		this.sampler.scheduleWithFixedDelay(
				() -> this.mostInUse.accumulateAndGet(pool.getActiveConnections(), Math::max), 0, 1,
				TimeUnit.MILLISECONDS);
	}

	@AfterEach
	void stopHost() {
		this.sampler.shutdownNow();
		this.host.close();
		this.pool.close();
	}

	@Test
	@DisplayName("Operation 1, 2, Host semantics: 200 non-blocking callers arriving at once at a free key on a pool of 10 are all served, one at a time")
	void crowdArrivingAtAFreeKeyIsServed() throws Exception {
		LeaseKey key = LeaseKey.of("crowd:" + UUID.randomUUID());
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		threads.resetPeakThreadCount();
		List<CompletableFuture<Object>> calls = new ArrayList<>();
		for (int i = 0; i < CALLERS; i++) {
			calls.add(call(key, LeaseHolder.of("caller-" + i)));
		}
		List<String> failures = outcomes(calls);
		assertThat(failures).as("callers not served (peak threads %d)", threads.getPeakThreadCount()).isEmpty();
		assertThat(this.grants).hasSize(CALLERS);
		assertThat(this.mostAtOnce).as("callers working at once").hasValue(1);
		assertThat(this.mostInUse.get()).as("pool connections in use at once, of %d", POOL).isLessThan(POOL);
	}

	@Test
	@DisplayName("Operation 2, Invariant 2.1: 200 non-blocking callers queued behind a holder on a pool of 10 are served in the order the database queued them")
	void crowdQueuedBehindAHolderIsServedInQueueOrder() throws Exception {
		LeaseKey key = LeaseKey.of("crowd:" + UUID.randomUUID());
		AsyncLeaseHost async = this.host.async();
		LeaseHolder first = LeaseHolder.of("first");
		assertThat(async.tryTake(key, first, TERM).get(30, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
		List<CompletableFuture<Object>> calls = new ArrayList<>();
		for (int i = 0; i < CALLERS; i++) {
			calls.add(call(key, LeaseHolder.of("caller-" + i)));
		}
		JdbcTemplate jdbc = new JdbcTemplate(this.pool);
		await().atMost(Duration.ofSeconds(60))
			.until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM LEASE_WAITERS WHERE LEASE_KEY = ?", Integer.class,
					(Object) key.bytes()) == CALLERS);
		List<String> queued = jdbc.query("SELECT HOLDER FROM LEASE_WAITERS WHERE LEASE_KEY = ? ORDER BY ARRIVAL",
				(row, n) -> new String(row.getBytes(1), StandardCharsets.UTF_8), (Object) key.bytes());
		async.release(key, first).get(30, TimeUnit.SECONDS);
		List<String> failures = outcomes(calls);
		assertThat(failures).as("callers not served").isEmpty();
		assertThat(this.grants).as("order of grants").containsExactlyElementsOf(queued);
		assertThat(this.mostAtOnce).as("callers working at once").hasValue(1);
		assertThat(this.mostInUse.get()).as("pool connections in use at once, of %d", POOL).isLessThan(POOL);
	}

	// A leased call: take, 20 ms of work, release, as a reactive @Leased method does.
	private CompletableFuture<Object> call(LeaseKey key, LeaseHolder holder) {
		AsyncLeaseHost async = this.host.async();
		return async.take(key, holder, TERM).thenCompose((result) -> {
			if (!(result instanceof Taken)) {
				return CompletableFuture.failedFuture(new AssertionError(holder + " answered " + result));
			}
			this.grants.add(holder.asString());
			this.mostAtOnce.accumulateAndGet(this.inFlight.incrementAndGet(), Math::max);
			return CompletableFuture.runAsync(this.inFlight::decrementAndGet, WORK)
				.thenCompose((done) -> async.release(key, holder))
				.thenApply(Object.class::cast);
		});
	}

	private static List<String> outcomes(List<CompletableFuture<Object>> calls) {
		List<String> failures = new ArrayList<>();
		for (CompletableFuture<Object> call : calls) {
			try {
				call.get(TERM.toSeconds() * 4, TimeUnit.SECONDS);
			}
			catch (Exception ex) {
				failures.add(String.valueOf(ex.getCause()));
			}
		}
		return failures;
	}

}
