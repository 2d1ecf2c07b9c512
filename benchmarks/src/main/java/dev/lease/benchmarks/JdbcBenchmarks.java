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

package dev.lease.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.core.io.Resource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.host.jdbc.JdbcLeaseHost;
import dev.lease.host.jdbc.JdbcLeaseSchema;

/**
 * The JDBC host on PostgreSQL ({@code LEASE_TEST_POSTGRES_URL}, else the local server),
 * and on MariaDB or MySQL when {@code LEASE_TEST_MARIADB_URL} is set: try_take + release
 * pairs beside the floor of one upsert and one delete through the same pool on the same
 * table, and the handoff latency from a release to the waiter's take returning, on the
 * same instance and on another one woken by {@code LISTEN/NOTIFY} (on MariaDB by the
 * key's poller), with what one handoff costs ({@link JdbcHandoff}).
 *
 * @author Lease contributors
 */
final class JdbcBenchmarks {

	private static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

	private static final Duration TERM = Duration.ofSeconds(30);

	private static final int ROUNDS = 7;

	private static final int HANDOFFS = 500;

	static final String FLOOR_UPSERT = """
			INSERT INTO LEASE_KEYS (LEASE_KEY, HOLDER, EXPIRES_AT, LATEST, QUEUED, ARRIVALS) VALUES (?, ?, ?, ?, 0, 0)
			ON CONFLICT (LEASE_KEY) DO UPDATE SET HOLDER = EXCLUDED.HOLDER, EXPIRES_AT = EXCLUDED.EXPIRES_AT
			WHERE LEASE_KEYS.EXPIRES_AT <= EXCLUDED.LATEST""";

	// The same upsert on MySQL and MariaDB: the key changes hands only once its instant
	// passed.
	static final String MYSQL_FLOOR_UPSERT = """
			INSERT INTO LEASE_KEYS (LEASE_KEY, HOLDER, EXPIRES_AT, LATEST, QUEUED, ARRIVALS) VALUES (?, ?, ?, ?, 0, 0)
			ON DUPLICATE KEY UPDATE HOLDER = IF(EXPIRES_AT <= VALUES(LATEST), VALUES(HOLDER), HOLDER),
			EXPIRES_AT = IF(EXPIRES_AT <= VALUES(LATEST), VALUES(EXPIRES_AT), EXPIRES_AT)""";

	private static final String FLOOR_DELETE = "DELETE FROM LEASE_KEYS WHERE LEASE_KEY = ? AND HOLDER = ?";

	private JdbcBenchmarks() {
	}

	static void run(BenchmarkTable table) {
		String url = System.getenv("LEASE_TEST_POSTGRES_URL");
		url = (url != null && !url.isBlank()) ? url : DEFAULT_URL;
		try (HikariDataSource pool = pool(url);
				HikariDataSource otherPool = pool(url);
				JdbcLeaseHost host = new JdbcLeaseHost(pool);
				JdbcLeaseHost other = new JdbcLeaseHost(otherPool)) {
			new ResourceDatabasePopulator(JdbcLeaseSchema.scripts("postgresql").toArray(Resource[]::new)).execute(pool);
			// Start from tables without the dead rows earlier runs and tests left: on a
			// server with autovacuum off they pile up and slow every lookup.
			JdbcTemplate jdbc = new JdbcTemplate(pool);
			jdbc.execute("VACUUM ANALYZE LEASE_KEYS");
			jdbc.execute("VACUUM ANALYZE LEASE_WAITERS");
			pairs(table, "PostgreSQL", FLOOR_UPSERT, pool, host, (threads) -> PeerBenchmarks.postgresql(pool, threads));
			handoff(table, "jdbc handoff, same instance", host, host);
			handoff(table, "jdbc handoff, other instance (LISTEN/NOTIFY)", host, other);
			JdbcCost.run(table.cost(), "PostgreSQL", url, FLOOR_UPSERT);
			JdbcHandoff.cost(System.out, "PostgreSQL", url, "LISTEN/NOTIFY");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			throw new IllegalStateException("JDBC benchmarks failed on " + url, ex);
		}
		String mariadbUrl = System.getenv("LEASE_TEST_MARIADB_URL");
		if (mariadbUrl != null && !mariadbUrl.isBlank()) {
			mariadb(table, mariadbUrl);
		}
	}

	// MySQL or MariaDB, the same pairs and peers beside their own floor, and the handoff.
	private static void mariadb(BenchmarkTable table, String url) {
		try (HikariDataSource pool = pool(url); JdbcLeaseHost host = new JdbcLeaseHost(pool)) {
			new ResourceDatabasePopulator(JdbcLeaseSchema.scripts("mysql").toArray(Resource[]::new)).execute(pool);
			pairs(table, "MariaDB", MYSQL_FLOOR_UPSERT, pool, host, (threads) -> PeerBenchmarks.mariadb(pool, threads));
			JdbcCost.run(table.cost(), "MariaDB", url, MYSQL_FLOOR_UPSERT);
			JdbcHandoff.mariadbRows(table, url);
			JdbcHandoff.cost(System.out, "MariaDB", url, "the key's poller");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			throw new IllegalStateException("JDBC benchmarks failed on " + url, ex);
		}
	}

	private static void pairs(BenchmarkTable table, String database, String floorUpsert, HikariDataSource pool,
			JdbcLeaseHost host, IntFunction<List<PeerBenchmarks.Peer>> peers) throws InterruptedException {
		JdbcTemplate jdbc = new JdbcTemplate(pool);
		LeaseHolder holder = LeaseHolder.of("benchmark");
		byte[] holderBytes = holder.bytes();
		for (int threads : new int[] { 1, 8 }) {
			LeaseKey[][] keys = keys("bench:jdbc:", threads);
			LeaseKey[][] floorKeys = keys("bench:floor:", threads);
			List<PeerBenchmarks.Peer> besides = new ArrayList<>();
			besides.add(new PeerBenchmarks.Peer("jdbc (" + database + ") try_take+release", (thread, index) -> {
				LeaseKey key = keys[thread][(int) (index & 1023)];
				host.tryTake(key, holder, TERM);
				host.release(key, holder);
			}));
			// Other libraries in the same rounds, on the same pool, beside the same
			// floor.
			besides.addAll(peers.apply(threads));
			List<PairThroughput.Beside> measured = PairThroughput.besideAll(threads, ROUNDS,
					floor(jdbc, floorUpsert, floorKeys, holderBytes),
					besides.stream().map(PeerBenchmarks.Peer::pair).toList());
			for (int i = 0; i < besides.size(); i++) {
				String name = (i == 0) ? besides.get(i).name() : besides.get(i).name() + " (" + database + ")";
				table.add(name + ", " + threads + " thread(s)", "pairs/s", measured.get(i).figure(),
						measured.get(i).floor(), besides.get(i).refusalsPerPair());
			}
		}
	}

	// One upsert and one delete, the simplest correct use of the same table.
	static PairThroughput.Pair floor(JdbcTemplate jdbc, String floorUpsert, LeaseKey[][] floorKeys, byte[] holder) {
		return (thread, index) -> {
			byte[] key = floorKeys[thread][(int) (index & 1023)].bytes();
			long now = System.currentTimeMillis() * 1000;
			jdbc.update(floorUpsert, key, holder, now + TERM.toNanos() / 1000, now);
			jdbc.update(FLOOR_DELETE, key, holder);
		};
	}

	// Release on one host while a waiter stands on the other: the time from the release
	// call to the waiter's take returning.
	private static void handoff(BenchmarkTable table, String name, JdbcLeaseHost releasing, JdbcLeaseHost waiting)
			throws Exception {
		JdbcTemplate jdbc = new JdbcTemplate(
				pool(System.getenv().getOrDefault("LEASE_TEST_POSTGRES_URL", DEFAULT_URL)));
		List<Double> millis = new ArrayList<>();
		LeaseHolder holder = LeaseHolder.of("bench:holder");
		LeaseHolder waiter = LeaseHolder.of("bench:waiter");
		for (int i = 0; i < HANDOFFS + 50; i++) {
			LeaseKey key = LeaseKey.of("bench:handoff:" + System.nanoTime() + ":" + i);
			releasing.tryTake(key, holder, TERM);
			long[] returned = new long[1];
			CompletableFuture<Void> take = CompletableFuture.runAsync(() -> {
				try {
					waiting.take(key, waiter, TERM);
					returned[0] = System.nanoTime();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			// a take that failed never queues: stop spinning so that take.get reports it
			while (!take.isDone() && jdbc.queryForObject("SELECT COUNT(*) FROM LEASE_WAITERS WHERE LEASE_KEY = ?",
					Integer.class, (Object) key.bytes()) == 0) {
				Thread.onSpinWait();
			}
			long released = System.nanoTime();
			releasing.release(key, holder);
			take.get(30, TimeUnit.SECONDS);
			if (i >= 50) {
				millis.add((returned[0] - released) / 1_000_000.0);
			}
			waiting.release(key, waiter);
		}
		((HikariDataSource) jdbc.getDataSource()).close();
		Collections.sort(millis);
		table.add(name + ", p50", "ms", millis.get(millis.size() / 2), Double.NaN);
		table.add(name + ", p99", "ms", millis.get((int) Math.ceil(millis.size() * 0.99) - 1), Double.NaN);
	}

	private static HikariDataSource pool(String url) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(10);
		return new HikariDataSource(config);
	}

	static LeaseKey[][] keys(String prefix, int threads) {
		LeaseKey[][] keys = new LeaseKey[threads][1024];
		for (int t = 0; t < threads; t++) {
			for (int i = 0; i < 1024; i++) {
				keys[t][i] = LeaseKey.of(prefix + t + ":" + i);
			}
		}
		return keys;
	}

}
