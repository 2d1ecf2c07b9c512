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
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;

import javax.sql.DataSource;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Other libraries' locks measured beside the project in the same run, on the same server
 * and pool: ShedLock's providers and Spring Integration's lock registries, each taking
 * and releasing a key of its own, with the project's term. Each keeps its state in tables
 * or keys of its own, created here.
 *
 * @author Lease contributors
 */
final class PeerBenchmarks {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static final String SHEDLOCK_TABLE = "LEASE_BENCH_SHEDLOCK";

	private static final String INT_PREFIX = "LEASE_BENCH_INT_";

	// How long a pair waits for a key a lock registry refused before the row fails.
	private static final Duration PATIENCE = Duration.ofSeconds(10);

	private PeerBenchmarks() {
	}

	// ShedLock's JdbcTemplateLockProvider on the database clock and Spring Integration's
	// JdbcLockRegistry, on PostgreSQL.
	static List<Peer> postgresql(DataSource pool, int threads) {
		JdbcTemplate jdbc = new JdbcTemplate(pool);
		createTables(jdbc, "TIMESTAMP", "TIMESTAMP");
		jdbc.execute("VACUUM ANALYZE " + SHEDLOCK_TABLE);
		jdbc.execute("VACUUM ANALYZE " + INT_PREFIX + "LOCK");
		return jdbc(jdbc, pool, threads);
	}

	// The same on MySQL and MariaDB, in the column types of each library's own MySQL
	// schema: a bare TIMESTAMP would keep whole seconds.
	static List<Peer> mariadb(DataSource pool, int threads) {
		JdbcTemplate jdbc = new JdbcTemplate(pool);
		createTables(jdbc, "DATETIME(3)", "DATETIME(6)");
		return jdbc(jdbc, pool, threads);
	}

	private static void createTables(JdbcTemplate jdbc, String shedlockTime, String integrationTime) {
		jdbc.execute("CREATE TABLE IF NOT EXISTS " + SHEDLOCK_TABLE + " (NAME VARCHAR(64) NOT NULL PRIMARY KEY,"
				+ " LOCK_UNTIL " + shedlockTime + " NOT NULL, LOCKED_AT " + shedlockTime + " NOT NULL,"
				+ " LOCKED_BY VARCHAR(255) NOT NULL)");
		jdbc.execute("CREATE TABLE IF NOT EXISTS " + INT_PREFIX + "LOCK (LOCK_KEY CHAR(36) NOT NULL,"
				+ " REGION VARCHAR(100) NOT NULL, CLIENT_ID CHAR(36), CREATED_DATE " + integrationTime + " NOT NULL,"
				+ " EXPIRED_AFTER " + integrationTime + " NOT NULL, CONSTRAINT " + INT_PREFIX
				+ "LOCK_PK PRIMARY KEY (LOCK_KEY, REGION))");
	}

	private static List<Peer> jdbc(JdbcTemplate jdbc, DataSource pool, int threads) {
		LockProvider shedlock = new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
			.withJdbcTemplate(jdbc)
			.withTableName(SHEDLOCK_TABLE)
			.usingDbTime()
			.build());
		DefaultLockRepository repository = new DefaultLockRepository(pool);
		repository.setPrefix(INT_PREFIX);
		repository.setTransactionManager(new DataSourceTransactionManager(pool));
		repository.afterPropertiesSet();
		repository.afterSingletonsInstantiated();
		Refusals refusals = new Refusals(true);
		JdbcLockRegistry registry = new JdbcLockRegistry(new CountingLockRepository(repository, refusals));
		return List.of(new Peer("ShedLock JdbcTemplateLockProvider (usingDbTime)", shedlock(shedlock, threads)),
				new Peer("Spring Integration JdbcLockRegistry", registry(registry, refusals, threads), refusals));
	}

	// ShedLock's RedisLockProvider and Spring Integration's RedisLockRegistry.
	static List<Peer> redis(RedisConnectionFactory factory, String prefix, int threads) {
		LockProvider shedlock = new RedisLockProvider(factory, prefix + "shedlock");
		RedisLockRegistry registry = new RedisLockRegistry(factory, prefix + "int", TERM.toMillis());
		Refusals refusals = new Refusals(false);
		return List.of(new Peer("ShedLock RedisLockProvider", shedlock(shedlock, threads)),
				new Peer("Spring Integration RedisLockRegistry", registry(registry, refusals, threads), refusals));
	}

	private static PairThroughput.Pair shedlock(LockProvider provider, int threads) {
		String[][] names = names("bench:shedlock:", threads);
		return (thread, index) -> {
			Optional<SimpleLock> lock = provider
				.lock(new LockConfiguration(Instant.now(), names[thread][(int) (index & 1023)], TERM, Duration.ZERO));
			lock.orElseThrow(() -> new IllegalStateException("ShedLock refused a free key")).unlock();
		};
	}

	// A registry guards each key with a ReentrantLock of the process taken from a table
	// of 256 shared by all keys (DefaultLockRegistry, picked by the key's hash), and
	// tryLock() answers false at once when another thread holds that entry for another
	// key, without asking the store. On 8 threads whose pairs last a round trip, that
	// is a few percent of tries on free keys, and immediate retries all fail while the
	// other thread waits for its store. So the pair does what a user who must run the
	// work does: it counts the refusal and waits in tryLock(timeout), the registry's
	// own waiting, for at most PATIENCE; the pairs per second include those waits.
	private static PairThroughput.Pair registry(LockRegistry<?> registry, Refusals refusals, int threads) {
		String[][] names = names("bench:int:", threads);
		return (thread, index) -> {
			Lock lock = registry.obtain(names[thread][(int) (index & 1023)]);
			if (!lock.tryLock()) {
				refusals.refusedFirstTry.increment();
				if (!lock.tryLock(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
					throw new IllegalStateException("Spring Integration did not grant a free key within " + PATIENCE);
				}
			}
			refusals.pairs.increment();
			lock.unlock();
		};
	}

	private static String[][] names(String prefix, int threads) {
		String[][] names = new String[threads][1024];
		for (int t = 0; t < threads; t++) {
			for (int i = 0; i < 1024; i++) {
				names[t][i] = prefix + t + ":" + i;
			}
		}
		return names;
	}

	/**
	 * A peer's pair, named as its row in the table.
	 *
	 * @param name the peer
	 * @param pair a try-acquire and a release of a key of its own
	 * @param refusals the refusals of free keys counted by the pair, or {@code null}
	 * where the pair cannot be refused and go on
	 */
	record Peer(String name, PairThroughput.Pair pair, @Nullable Refusals refusals) {

		Peer(String name, PairThroughput.Pair pair) {
			this(name, pair, null);
		}

		// The table's refusals cell.
		String refusalsPerPair() {
			Refusals counted = this.refusals;
			return (counted != null) ? counted.perPair() : "—";
		}

	}

	/**
	 * How often a lock registry refused a free key at the first try, over every pair of a
	 * row (warm-up included), and, where the store is watched, how often it answered no:
	 * the rest were refused in the process.
	 */
	static final class Refusals {

		final LongAdder pairs = new LongAdder();

		final LongAdder refusedFirstTry = new LongAdder();

		final LongAdder storeRefusals = new LongAdder();

		private final boolean storeWatched;

		Refusals(boolean storeWatched) {
			this.storeWatched = storeWatched;
		}

		String perPair() {
			long total = this.pairs.sum();
			long refused = this.refusedFirstTry.sum();
			String perPair = String.format(Locale.ROOT, "%.4f (%,d of %,d)", (total > 0) ? refused / (double) total : 0,
					refused, total);
			return this.storeWatched
					? perPair + String.format(Locale.ROOT, "; the database said no %,d times", this.storeRefusals.sum())
					: perPair;
		}

	}

}
