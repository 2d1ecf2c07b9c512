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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The host on MariaDB (or MySQL) named by {@code LEASE_TEST_MARIADB_URL} while its tables
 * carry the triggers that online schema change tools add while they copy a table: after
 * every insert, update and delete, a row written into a shadow table with an
 * {@code AUTO_INCREMENT} column. The tables have a prefix of their own, never the shared
 * default tables; skipped without the variable.
 *
 * @author Lease contributors
 */
@EnabledIfEnvironmentVariable(named = JdbcTestServers.MARIADB_VARIABLE, matches = ".+",
		disabledReason = "MariaDB tests skipped: set LEASE_TEST_MARIADB_URL (e.g. jdbc:mariadb://127.0.0.1:3306/test?user=root)")
class MariadbTriggerIntegrationTests {

	private static final Duration LONG = Duration.ofSeconds(60);

	private static final int RACERS = 8;

	private static final int KEYS = 3;

	private static final Duration RUN = Duration.ofSeconds(10);

	private final String prefix = "LTRG" + UUID.randomUUID().toString().substring(0, 8).toUpperCase() + "_";

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private HikariDataSource dataSource;

	private JdbcTemplate jdbc;

	private JdbcLeaseHost host;

	@BeforeEach
	void createTablesWithTriggers() {
		this.dataSource = JdbcTestServers.pool(JdbcTestServers.mariadbUrl(), "mysql");
		this.dataSource.setMaximumPoolSize(RACERS + 8);
		this.jdbc = new JdbcTemplate(this.dataSource);
		// The shipped scripts, under this test's own prefix.
		JdbcTestServers.withSchema(this.dataSource, "mysql", this.prefix);
		this.jdbc.execute("CREATE TABLE " + this.prefix + "SHADOW (ID BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
				+ " SOURCE VARCHAR(32) NOT NULL, LEASE_KEY VARBINARY(1024), HOLDER VARBINARY(1024),"
				+ " EXPIRES_AT BIGINT) ENGINE=InnoDB");
		for (String table : List.of("KEYS", "WAITERS")) {
			String expiresAt = table.equals("KEYS") ? "EXPIRES_AT" : "GRANTED_EXPIRES_AT";
			for (String event : List.of("INSERT", "UPDATE", "DELETE")) {
				String row = event.equals("DELETE") ? "OLD" : "NEW";
				this.jdbc.execute("CREATE TRIGGER " + this.prefix + table + "_" + event + " AFTER " + event + " ON "
						+ this.prefix + table + " FOR EACH ROW INSERT INTO " + this.prefix
						+ "SHADOW (SOURCE, LEASE_KEY, HOLDER, EXPIRES_AT) VALUES ('" + table + " " + event + "', " + row
						+ ".LEASE_KEY, " + row + ".HOLDER, " + row + "." + expiresAt + ")");
			}
		}
		this.host = JdbcLeaseHost.builder(this.dataSource).tablePrefix(this.prefix).build();
	}

	@AfterEach
	void dropTables() throws InterruptedException {
		this.threads.shutdownNow();
		this.threads.awaitTermination(30, TimeUnit.SECONDS);
		if (this.host != null) {
			this.host.close();
		}
		if (this.jdbc != null) {
			for (String table : List.of("SHADOW", "WAITERS", "KEYS", "PROTOCOL")) {
				this.jdbc.execute("DROP TABLE IF EXISTS " + this.prefix + table);
			}
		}
		if (this.dataSource != null) {
			this.dataSource.close();
		}
	}

	@Test
	@DisplayName("Operation 6, 7, 11, Invariant 1.2: with triggers on both tables, try take, take and release of a free key answer what they did")
	void takesAndReleasesAnswerWhatTheyDidWithTriggers() throws Exception {
		LeaseKey key = LeaseKey.of("trigger:" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("holder:" + UUID.randomUUID());
		LeaseHolder other = LeaseHolder.of("other:" + UUID.randomUUID());
		assertThat(this.host.tryTake(key, holder, LONG)).as("try take of a key with no row").isInstanceOf(Taken.class);
		assertThat(this.host.tryTake(key, other, LONG)).isInstanceOf(Held.class);
		assertThatExceptionOfType(ReentrantTakeException.class).isThrownBy(() -> this.host.tryTake(key, holder, LONG));
		assertThat(this.host.remaining(key, holder)).isPresent();
		assertThat(this.host.release(key, holder)).isInstanceOf(Released.class);
		assertThat(this.host.take(key, other, LONG)).as("take of a free key").isInstanceOf(Taken.class);
		assertThat(this.host.tryTake(key, holder, LONG)).isInstanceOf(Held.class);
		CompletableFuture<TakeResult> waiting = CompletableFuture.supplyAsync(() -> take(key, holder, LONG),
				this.threads);
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> this.jdbc.queryForObject("SELECT COUNT(*) FROM " + this.prefix + "WAITERS WHERE LEASE_KEY = ?",
					Integer.class, (Object) key.bytes()) == 1);
		assertThat(this.host.release(key, other)).isInstanceOf(Released.class);
		assertThat(waiting.get(10, TimeUnit.SECONDS)).as("take handed the key").isInstanceOf(Taken.class);
		assertThat(this.host.release(key, holder)).isInstanceOf(Released.class);
		this.jdbc.update("UPDATE " + this.prefix + "KEYS SET EXPIRES_AT = LATEST WHERE LEASE_KEY = ?",
				(Object) key.bytes());
		assertThat(this.host.tryTake(key, holder, LONG)).as("try take of a key whose grant passed")
			.isInstanceOf(Taken.class);
		assertThat(this.host.release(key, holder)).isInstanceOf(Released.class);
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + this.prefix + "SHADOW", Integer.class))
			.as("rows the triggers wrote")
			.isPositive();
	}

	@Test
	@DisplayName("Invariant 1.2, Operation 7: under load with triggers on both tables, every grant written is answered Taken exactly once")
	void everyGrantIsAnsweredTakenExactlyOnceWithTriggers() throws Exception {
		List<LeaseKey> keys = new ArrayList<>();
		for (int i = 0; i < KEYS; i++) {
			keys.add(LeaseKey.of("trigger-load:" + UUID.randomUUID()));
		}
		Map<String, Long> answered = new ConcurrentHashMap<>();
		ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
		long end = System.nanoTime() + RUN.toNanos();
		List<Future<?>> racers = new ArrayList<>();
		for (int r = 0; r < RACERS; r++) {
			racers.add(this.threads.submit(() -> {
				race(keys, end, answered, failures);
				return null;
			}));
		}
		for (Future<?> racer : racers) {
			racer.get(RUN.toSeconds() + 60, TimeUnit.SECONDS);
		}
		// Every grant ever written, as the triggers saw it: a holder (fresh for each
		// call) and the grant's instant, in the key's row or, for a grant handed to a
		// waiter that had passed before it was saved, in the waiter's row alone.
		Map<String, Long> written = new HashMap<>();
		this.jdbc.query("SELECT DISTINCT HOLDER, EXPIRES_AT FROM " + this.prefix + "SHADOW WHERE SOURCE IN"
				+ " ('KEYS INSERT', 'KEYS UPDATE', 'WAITERS UPDATE') AND HOLDER IS NOT NULL AND EXPIRES_AT IS NOT NULL",
				(resultSet) -> {
					String holder = new String(resultSet.getBytes(1), StandardCharsets.UTF_8);
					Long previous = written.put(holder, resultSet.getLong(2));
					if (previous != null) {
						failures.add("two grants to " + holder);
					}
				});
		System.out.printf("Grants written %d, answered Taken %d, calls failed or answered wrongly %d%n", written.size(),
				answered.size(), failures.size());
		assertThat(failures).as("calls that failed or answered wrongly").isEmpty();
		assertThat(answered).as("grants answered Taken").hasSizeGreaterThan(RACERS);
		Map<String, Long> neverAnswered = new HashMap<>(written);
		neverAnswered.keySet().removeAll(answered.keySet());
		Map<String, Long> neverWritten = new HashMap<>(answered);
		neverWritten.keySet().removeAll(written.keySet());
		List<String> otherInstant = new ArrayList<>();
		answered.forEach((holder, expiresAt) -> {
			Long stored = written.get(holder);
			if (stored != null && stored.longValue() != expiresAt) {
				otherInstant.add(holder + " answered " + expiresAt + ", written " + stored);
			}
		});
		assertThat(neverAnswered).as("grants written and never answered Taken (of %d)", written.size()).isEmpty();
		assertThat(neverWritten).as("Taken answers with no grant written").isEmpty();
		assertThat(otherInstant).as("Taken answers with another instant than the grant written").isEmpty();
	}

	// Fresh holders, terms of 20 to 200 ms; a try take most of the time, else a take
	// that queues; a grant released at once, a little later, or left to pass.
	private void race(List<LeaseKey> keys, long end, Map<String, Long> answered, ConcurrentLinkedQueue<String> failures)
			throws InterruptedException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		while (System.nanoTime() < end) {
			LeaseKey key = keys.get(random.nextInt(keys.size()));
			String name = "racer:" + UUID.randomUUID();
			LeaseHolder holder = LeaseHolder.of(name);
			Duration term = Duration.ofMillis(20 + random.nextInt(180));
			Object result;
			try {
				result = (random.nextInt(4) == 0) ? this.host.take(key, holder, term)
						: this.host.tryTake(key, holder, term);
			}
			catch (RuntimeException ex) {
				failures.add(name + ": " + ex);
				continue;
			}
			if (!(result instanceof Taken taken)) {
				continue;
			}
			long expiresAt = Math.addExact(Math.multiplyExact(taken.lease().expiresAt().getEpochSecond(), 1_000_000L),
					taken.lease().expiresAt().getNano() / 1_000);
			if (answered.put(name, expiresAt) != null) {
				failures.add(name + " answered Taken twice");
			}
			int after = random.nextInt(3);
			if (after == 1) {
				Thread.sleep(random.nextLong(term.toMillis() / 2 + 1));
			}
			if (after < 2 && !(this.host.release(key, holder) instanceof Released)
					&& this.host.remaining(key, holder).isPresent()) {
				failures.add(name + ": release of a standing grant answered not-held");
			}
		}
	}

	private TakeResult take(LeaseKey key, LeaseHolder holder, Duration term) {
		try {
			return this.host.take(key, holder, term);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
