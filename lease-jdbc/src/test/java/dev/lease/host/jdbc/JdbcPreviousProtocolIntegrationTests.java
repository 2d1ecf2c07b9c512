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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.tck.history.HistoryChecker;
import dev.lease.tck.history.RecordingLeaseHost;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of an instance of the previous protocol, protocol 1, beside this host on one
 * store: the previous release's own tables (test fixtures
 * {@code protocol-1/schema-<platform>.sql}, then the shipped migration that adds the
 * protocol record, as an upgrade runs it) and its own statements, issued by
 * {@link PreviousProtocolJdbcInstance}. That release records no protocol and leaves rows
 * this release cannot tell from its own, so nothing can refuse it: the docs tell users to
 * upgrade from it with every instance stopped. These tests show what a rolling deploy
 * would meet on the paths of keys nobody waits for: each side honours the other's
 * grants, and takes and releases from both sides never overlap (lease-tck's history
 * checker). On PostgreSQL and MariaDB.
 *
 * @author Lease contributors
 */
class JdbcPreviousProtocolIntegrationTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static final int ROUNDS = 150;

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
		assertThat(old.tryTake(key, before, TERM)).isInstanceOf(Taken.class);
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

	@ParameterizedTest
	@ValueSource(strings = { "postgresql", "mysql" })
	void takesAndReleasesFromBothSidesNeverOverlap(String platform) throws InterruptedException {
		PreviousProtocolJdbcInstance old = start(platform);
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
							assertThat(side.release(key, holder)).isInstanceOf(Released.class);
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

	// The previous release's tables, the migration an upgrade runs first, this host
	// started on them, and an instance of the previous release.
	private PreviousProtocolJdbcInstance start(String platform) {
		String url = "postgresql".equals(platform) ? JdbcTestServers.postgresUrl() : JdbcTestServers.mariadbUrl();
		this.dataSource = JdbcTestServers.pool(url, platform);
		this.jdbc = new JdbcTemplate(this.dataSource);
		run("protocol-1/schema-" + platform + ".sql");
		run("dev/lease/host/jdbc/migration/" + platform + "/V3__lease_protocol.sql");
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
