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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.QueuedTakes;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.tck.history.HistoryChecker;
import dev.lease.tck.history.RecordingLeaseHost;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests of an instance of the previous protocol, protocol 1, beside this host on one
 * store: the previous release's own tables (test fixtures
 * {@code protocol-1/schema-<platform>.sql}, then the shipped migrations, as an upgrade
 * runs them) and its own statements, issued by {@link PreviousProtocolJdbcInstance}. That
 * release records no protocol and writes rows this release cannot tell from its own, so
 * nothing can refuse it, and the docs say to upgrade from it with every instance stopped.
 * What a rolling deploy would meet, on keys nobody waits for: each side honours a grant
 * the other made before its question; on MariaDB, whose statements did not change, takes
 * and releases from both sides never overlap (lease-tck's history checker); on PostgreSQL
 * neither side's statements wait for the other's key lock, so a grant of the old
 * statements can be dated before a grant this host made and released while the old
 * statement waited for the row (which the history checker reports as overlapping grants):
 * the reason the two cannot work side by side.
 *
 * @author Lease contributors
 */
class JdbcPreviousProtocolIntegrationTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static final int ROUNDS = 150;

	// The previous protocol's key lock, of the key given as the parameter (80199ca's
	// KEY_HASH, as PreviousProtocolJdbcInstance takes it).
	private static final String PREVIOUS_KEY_LOCK = "(SELECT HASHTEXTEXTENDED(ENCODE(LEASE_KEY, 'hex'), 7811886091)"
			+ " FROM (SELECT CAST(? AS BYTEA) AS LEASE_KEY) P)";

	// This protocol's key lock's second number, of the key given as the parameter.
	private static final String THIS_KEY_LOCK_OBJECT = "(SELECT " + JdbcLeaseStatements.KEY_LOCK_OBJECT
			+ " FROM (SELECT CAST(? AS BYTEA) AS LEASE_KEY) P)";

	private final String prefix = "PREV_"
			+ UUID.randomUUID().toString().replace("-", "").substring(0, 12).toUpperCase(Locale.ROOT) + "_";

	private HikariDataSource dataSource;

	private JdbcTemplate jdbc;

	private JdbcLeaseHost host;

	@AfterEach
	void dropTables() {
		if (this.host != null) {
			this.host.close();
		}
		for (String table : List.of("WAITERS", "KEYS", "PROTOCOL")) {
			this.jdbc.execute("DROP TABLE IF EXISTS " + this.prefix + table);
		}
		this.dataSource.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "postgresql", "mysql" })
	void theOldStatementsAndThisHostHonourEachOthersGrants(String platform) {
		PreviousProtocolJdbcInstance old = start(platform);
		LeaseKey key = LeaseKey.of("shared");
		LeaseHolder before = LeaseHolder.of("old");
		LeaseHolder after = LeaseHolder.of("new");
		Lease oldGrant = ((Taken) old.tryTake(key, before, TERM)).lease();
		assertThat(this.host.grantedAt(oldGrant)).as("the old statements write no start").isEmpty();
		assertThat(this.host.tryTake(key, after, TERM)).as("the old statements' grant").isInstanceOf(Held.class);
		assertThat(this.host.release(key, after)).isInstanceOf(NotHeld.class);
		assertThat(this.host.grant(key)).hasValueSatisfying((lease) -> assertThat(lease.holder()).isEqualTo(before));
		assertThat(old.release(key, before)).isInstanceOf(Released.class);
		assertThat(this.host.tryTake(key, after, TERM)).isInstanceOf(Taken.class);
		assertThat(old.tryTake(key, before, TERM)).as("this host's grant").isInstanceOf(Held.class);
		assertThat(old.release(key, before)).isInstanceOf(NotHeld.class);
		assertThat(this.host.release(key, after)).isInstanceOf(Released.class);
		assertThat(old.tryTake(key, before, TERM)).isInstanceOf(Taken.class);
		assertThat(old.release(key, before)).isInstanceOf(Released.class);
	}

	@Test
	void onMariadbTakesAndReleasesFromBothSidesNeverOverlap() throws InterruptedException {
		PreviousProtocolJdbcInstance old = start("mysql");
		RecordingLeaseHost recording = new RecordingLeaseHost(this.host);
		RecordingLeaseHost oldRecording = recording.alongside(old);
		List<LeaseKey> keys = List.of(LeaseKey.of("a"), LeaseKey.of("b"));
		AtomicInteger takenByOld = new AtomicInteger();
		AtomicInteger takenByNew = new AtomicInteger();
		List<Thread> threads = new ArrayList<>();
		List<Throwable> failures = new CopyOnWriteArrayList<>();
		for (int i = 0; i < 4; i++) {
			boolean oldSide = (i % 2 == 1);
			LeaseHost side = oldSide ? oldRecording : recording;
			LeaseHolder holder = LeaseHolder.of((oldSide ? "old-" : "new-") + i);
			AtomicInteger taken = oldSide ? takenByOld : takenByNew;
			Thread thread = new Thread(() -> {
				try {
					for (int round = 0; round < ROUNDS; round++) {
						LeaseKey key = keys.get(ThreadLocalRandom.current().nextInt(keys.size()));
						if (side.tryTake(key, holder, TERM) instanceof Taken) {
							taken.incrementAndGet();
							// the history checker judges every answer
							side.release(key, holder);
						}
					}
				}
				catch (Throwable ex) {
					failures.add(ex);
				}
			}, "side-" + i);
			thread.start();
			threads.add(thread);
		}
		for (Thread thread : threads) {
			thread.join(TimeUnit.SECONDS.toMillis(120));
			assertThat(thread.isAlive()).as("%s still running after 120 s", thread.getName()).isFalse();
		}
		assertThat(failures).isEmpty();
		assertThat(takenByOld).as("grants to the old statements").hasPositiveValue();
		assertThat(takenByNew).as("grants to this host").hasPositiveValue();
		new HistoryChecker(Duration.ofMillis(50), Duration.ofSeconds(1), Duration.ZERO).check(recording.history());
	}

	// The shipped migrations leave the waiters' arrival instant without a default, so the
	// previous release's take cannot queue behind a grant: its insert fails, and the take
	// with it, rather than working beside this release on a key others wait for.
	@ParameterizedTest
	@ValueSource(strings = { "postgresql", "mysql" })
	void theOldStatementsCannotQueueAWaiterOnceTheMigrationsRan(String platform) {
		PreviousProtocolJdbcInstance old = start(platform);
		LeaseKey key = LeaseKey.of("queued");
		Lease standing = ((Taken) this.host.tryTake(key, LeaseHolder.of("new"), TERM)).lease();
		assertThatExceptionOfType(DataAccessException.class)
			.isThrownBy(() -> old.queueWaiter(1, key, LeaseHolder.of("old"), TERM, standing.expiresAt()))
			.satisfies((ex) -> assertThat(ex.getMessage()).containsIgnoringCase("ARRIVED_AT"));
		assertThat(this.host.waiting(key)).hasValue(QueuedTakes.NONE);
	}

	// Each protocol's key lock held by a session of its own: the other protocol's
	// statements answer without waiting for it, where each waits for its own (this host
	// fails the question after its 2 s bound).
	@Test
	void onPostgresqlNeitherProtocolWaitsForTheOthersKeyLock() throws Exception {
		PreviousProtocolJdbcInstance old = start("postgresql");
		LeaseKey key = LeaseKey.of("locked");
		LeaseHolder before = LeaseHolder.of("old");
		LeaseHolder after = LeaseHolder.of("new");
		try (Connection session = this.dataSource.getConnection()) {
			lock(session, "PG_ADVISORY_LOCK(" + PREVIOUS_KEY_LOCK + ")", key.bytes());
			assertThat(within(() -> this.host.tryTake(key, after, TERM))).as("this host, the old key lock held")
				.isInstanceOf(Taken.class);
			assertThat(within(() -> this.host.release(key, after))).isInstanceOf(Released.class);
			unlockAll(session);
			lock(session, "PG_ADVISORY_LOCK(?, " + THIS_KEY_LOCK_OBJECT + ")",
					JdbcLeaseStatements.keyLockClass(this.prefix), key.bytes());
			assertThat(within(() -> old.tryTake(key, before, TERM))).as("the old statements, this key lock held")
				.isInstanceOf(Taken.class);
			assertThat(within(() -> this.host.tryTake(key, after, TERM))).as("this host, its own key lock held")
				.isInstanceOfSatisfying(LeaseHostException.class,
						(ex) -> assertThat(ex).hasMessageContaining("another session held the key's lock"));
			assertThat(within(() -> old.release(key, before))).isInstanceOf(Released.class);
			unlockAll(session);
		}
	}

	// The answer, or the LeaseHostException, of a question answered within 30 s.
	private static Object within(Supplier<Object> question) throws Exception {
		CompletableFuture<Object> answer = CompletableFuture.supplyAsync(() -> {
			try {
				return question.get();
			}
			catch (LeaseHostException ex) {
				return ex;
			}
		});
		return answer.get(30, TimeUnit.SECONDS);
	}

	private static void lock(Connection session, String lock, Object... parameters) throws SQLException {
		try (PreparedStatement statement = session.prepareStatement("SELECT " + lock)) {
			for (int i = 0; i < parameters.length; i++) {
				statement.setObject(i + 1, parameters[i]);
			}
			statement.execute();
		}
	}

	private static void unlockAll(Connection session) throws SQLException {
		try (PreparedStatement statement = session.prepareStatement("SELECT PG_ADVISORY_UNLOCK_ALL()")) {
			statement.execute();
		}
	}

	// The previous release's tables, the migration an upgrade runs first, this host
	// started on them, and an instance of the previous release.
	private PreviousProtocolJdbcInstance start(String platform) {
		String url = "postgresql".equals(platform) ? JdbcTestServers.postgresUrl() : JdbcTestServers.mariadbUrl();
		this.dataSource = JdbcTestServers.pool(url, platform);
		this.jdbc = new JdbcTemplate(this.dataSource);
		run("protocol-1/schema-" + platform + ".sql");
		for (Resource migration : JdbcLeaseSchema.scripts(platform)) {
			run("dev/lease/host/jdbc/migration/" + platform + "/" + migration.getFilename());
		}
		this.host = JdbcLeaseHost.builder(this.dataSource).tablePrefix(this.prefix).notifications(false).build();
		return new PreviousProtocolJdbcInstance(this.dataSource, platform, this.prefix);
	}

	// Runs a script under this test's table prefix, as the schema initializer does.
	private void run(String script) {
		try {
			String sql = new String(new ClassPathResource(script).getContentAsByteArray(), StandardCharsets.UTF_8);
			String prefixed = sql.replaceAll("\\bLEASE_(KEYS|WAITERS|PROTOCOL)", this.prefix + "$1");
			new ResourceDatabasePopulator(new ByteArrayResource(prefixed.getBytes(StandardCharsets.UTF_8)))
				.execute(this.dataSource);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
