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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
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
import org.springframework.jdbc.core.RowCallbackHandler;

import dev.lease.AsyncLeaseHost;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two hundred callers of one key through the host's non-blocking view, on a pool of ten
 * connections as Spring Boot's default (Host semantics waking, Operation 1, Non-goal 3):
 * every caller is served, in the order the host queued them, and a waiting take holds no
 * pool connection while it waits.
 *
 * @author Lease contributors
 */
abstract class JdbcAsyncCrowdChecks {

	private static final int CALLERS = 200;

	private static final int POOL = 10;

	private static final Duration WORK = Duration.ofMillis(20);

	// Long enough for 200 pieces of work on a loaded two-core machine: every waiter's
	// bound is the first grant's instant.
	private static final Duration TERM = Duration.ofSeconds(60);

	private HikariDataSource pool;

	private HikariDataSource observer;

	private JdbcLeaseHost host;

	// The JDBC URL of the database.
	abstract String url();

	abstract String platform();

	@BeforeEach
	void startHost() {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url());
		config.setMaximumPoolSize(POOL);
		config.setPoolName("lease-test-crowd-" + UUID.randomUUID().toString().substring(0, 8));
		this.pool = JdbcTestServers.withSchema(new HikariDataSource(config), platform());
		this.observer = JdbcTestServers.pool(url(), platform());
		this.host = new JdbcLeaseHost(this.pool);
	}

	@AfterEach
	void stopHost() {
		this.host.close();
		this.pool.close();
		this.observer.close();
	}

	@Test
	@DisplayName("Host: waking, Non-goal 3: 200 asynchronous callers of one key at once on a pool of 10 are all served, in the order the host queued them")
	void everyAsynchronousCallerIsServedInArrivalOrder() throws Exception {
		LeaseKey key = LeaseKey.of("jdbc-crowd:" + UUID.randomUUID());
		AsyncLeaseHost async = this.host.async();
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		threads.resetPeakThreadCount();
		Executor afterWork = CompletableFuture.delayedExecutor(WORK.toMillis(), TimeUnit.MILLISECONDS);
		List<LeaseHolder> served = new CopyOnWriteArrayList<>();
		List<CompletableFuture<TakeResult>> answers = new ArrayList<>();
		List<CompletableFuture<?>> done = new ArrayList<>();
		// The arrival numbers of the callers seen queued: the proof of their order.
		Map<LeaseHolder, Long> arrivals = new ConcurrentHashMap<>();
		// A connection of the pool opened while the crowd asks would show as a wait.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.pool.getHikariPoolMXBean().getIdleConnections() == POOL);
		HikariPoolMXBean connections = this.pool.getHikariPoolMXBean();
		AtomicInteger mostAwaiting = new AtomicInteger();
		AtomicInteger mostActive = new AtomicInteger();
		ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor();
		watch.scheduleWithFixedDelay(() -> {
			mostAwaiting.accumulateAndGet(connections.getThreadsAwaitingConnection(), Math::max);
			mostActive.accumulateAndGet(connections.getActiveConnections(), Math::max);
			arrivals.putAll(arrivals(key));
		}, 0, 5, TimeUnit.MILLISECONDS);
		long started = System.nanoTime();
		try {
			for (int i = 0; i < CALLERS; i++) {
				LeaseHolder holder = LeaseHolder.of("caller-" + i + ":" + UUID.randomUUID());
				CompletableFuture<TakeResult> answer = async.take(key, holder, TERM);
				answers.add(answer);
				done.add(answer.thenCompose((result) -> {
					if (!(result instanceof Taken)) {
						return CompletableFuture.completedFuture(null);
					}
					served.add(holder);
					return CompletableFuture.supplyAsync(() -> null, afterWork)
						.thenCompose((ignored) -> async.release(key, holder))
						.thenApply((released) -> null);
				}));
			}
			CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(TERM.toSeconds(), TimeUnit.SECONDS);
		}
		finally {
			watch.shutdownNow();
			watch.awaitTermination(10, TimeUnit.SECONDS);
		}
		long finished = System.nanoTime();
		List<String> unserved = new ArrayList<>();
		for (int i = 0; i < CALLERS; i++) {
			TakeResult result = answers.get(i).getNow(null);
			if (!(result instanceof Taken)) {
				unserved.add("caller " + i + ": " + result);
			}
		}
		System.out.printf(
				"%s: %d callers answered in %d ms, %d not served, peak %d live threads,"
						+ " at most %d of %d connections in use, at most %d callers waiting for one%n",
				platform(), CALLERS, TimeUnit.NANOSECONDS.toMillis(finished - started), unserved.size(),
				threads.getPeakThreadCount(), mostActive.get(), POOL, mostAwaiting.get());
		assertThat(unserved).as("callers not served").isEmpty();
		List<LeaseHolder> seenQueued = served.stream().filter(arrivals::containsKey).toList();
		List<LeaseHolder> inArrivalOrder = new ArrayList<>(seenQueued);
		inArrivalOrder.sort(Comparator.comparing(arrivals::get));
		assertThat(seenQueued).as("grants of the callers seen queued, in the host's arrival order")
			.containsExactlyElementsOf(inArrivalOrder);
		// Waiting takes held no connection, and no question waited for one behind them.
		assertThat(mostAwaiting.get()).as("most callers waiting for a pool connection at once").isZero();
		assertThat(JdbcTestServers.rows(this.observer, key)).isEmpty();
	}

	// The holders queued for the key, with their arrival numbers.
	private Map<LeaseHolder, Long> arrivals(LeaseKey key) {
		Map<LeaseHolder, Long> arrivals = new ConcurrentHashMap<>();
		RowCallbackHandler queued = (row) -> arrivals.put(LeaseHolder.of(row.getBytes(1)), row.getLong(2));
		new JdbcTemplate(this.observer).query("SELECT HOLDER, ARRIVAL FROM LEASE_WAITERS WHERE LEASE_KEY = ?", queued,
				(Object) key.bytes());
		return arrivals;
	}

}
