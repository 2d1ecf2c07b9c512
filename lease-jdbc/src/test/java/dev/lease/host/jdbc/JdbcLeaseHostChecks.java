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

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.lease.GrantsPage;
import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.host.KeyCursor;
import dev.lease.tck.faults.KilledHolderWaiters;
import dev.lease.tck.history.Event;
import dev.lease.tck.history.RecordingLeaseHost;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What the JDBC host must show beyond the conformance kit, on every database: two
 * application instances with separate pools on one table, byte identity in the database's
 * own comparison, no rows left behind, no half-written state after a connection fails
 * mid-operation, and a killed holder's grant standing through its instant.
 *
 * @author Lease contributors
 */
abstract class JdbcLeaseHostChecks {

	private static final Duration LONG = Duration.ofSeconds(60);

	private static final Duration TOLERANCE = Duration.ofSeconds(2);

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	HikariDataSource dataSource;

	JdbcLeaseHost host;

	JdbcTemplate jdbc;

	// The JDBC URL of the database, whose tables the shipped script has created.
	abstract String url();

	abstract String platform();

	// Whether another process can reach the same database (not so for H2 in memory).
	boolean sharedAcrossProcesses() {
		return true;
	}

	@BeforeEach
	void startHost() {
		this.dataSource = pool();
		JdbcTestServers.withSchema(this.dataSource, platform());
		this.host = host(this.dataSource);
		this.jdbc = new JdbcTemplate(this.dataSource);
	}

	@AfterEach
	void stopHosts() throws Exception {
		this.threads.shutdownNow();
		this.threads.awaitTermination(10, TimeUnit.SECONDS);
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

	HikariDataSource pool() {
		return pool(null);
	}

	HikariDataSource pool(@Nullable String applicationName) {
		HikariDataSource pool = JdbcTestServers.pool(url(), platform(), applicationName);
		this.closeables.add(0, pool);
		return pool;
	}

	JdbcLeaseHost host(DataSource dataSource) {
		return track(new JdbcLeaseHost(dataSource));
	}

	// A host built by the test, closed after it.
	JdbcLeaseHost track(JdbcLeaseHost built) {
		this.closeables.add(0, built);
		return built;
	}

	@Test
	@DisplayName("Check 1.1 (Invariant 1.2): two instances with separate pools racing on one key yield exactly one Taken")
	void twoInstancesRacingOnOneKeyYieldExactlyOneTaken() throws Exception {
		JdbcLeaseHost other = host(pool());
		for (int round = 0; round < 5; round++) {
			LeaseKey key = newKey();
			CountDownLatch start = new CountDownLatch(1);
			List<Future<TryTakeResult>> answers = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				JdbcLeaseHost racer = (i % 2 == 0) ? this.host : other;
				LeaseHolder holder = newHolder("racer-" + i);
				answers.add(this.threads.submit(() -> {
					start.await();
					return racer.tryTake(key, holder, LONG);
				}));
			}
			start.countDown();
			int taken = 0;
			for (Future<TryTakeResult> answer : answers) {
				TryTakeResult result = answer.get(30, TimeUnit.SECONDS);
				assertThat(result).isInstanceOfAny(Taken.class, Held.class);
				taken += (result instanceof Taken) ? 1 : 0;
			}
			assertThat(taken).as("grants in round %d", round).isEqualTo(1);
		}
	}

	@Test
	@DisplayName("Operation 2: a waiter on one instance is handed the key released on another, promptly")
	void waiterOnOneInstanceIsHandedTheKeyReleasedOnAnother() throws Exception {
		JdbcLeaseHost other = host(pool());
		LeaseKey key = newKey();
		LeaseHolder first = newHolder("first");
		LeaseHolder second = newHolder("second");
		assertThat(this.host.tryTake(key, first, LONG)).isInstanceOf(Taken.class);
		CompletableFuture<TakeResult> waiting = CompletableFuture.supplyAsync(() -> take(other, key, second, LONG),
				this.threads);
		awaitQueued(key, 1);
		long released = System.nanoTime();
		assertThat(this.host.release(key, first)).isInstanceOf(Released.class);
		TakeResult result = waiting.get(TOLERANCE.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(result).isInstanceOf(Taken.class);
		assertThat(Duration.ofNanos(System.nanoTime() - released)).isLessThan(TOLERANCE);
		assertThat(this.host.remaining(key, second)).isPresent();
	}

	@Test
	@DisplayName("Issue 16: on a hot key, waiters not named run no statement while they sleep, and a handoff costs what it costs at any queue length")
	void hotKeyHandoffCostsNoStatementPerWaiter() throws Exception {
		int waiters = 40;
		StatementCounter counter = new StatementCounter(pool());
		JdbcLeaseHost counted = host(counter.dataSource());
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		assertThat(counted.tryTake(key, holder, LONG)).isInstanceOf(Taken.class);
		List<LeaseHolder> holders = new ArrayList<>();
		List<CompletableFuture<TakeResult>> takes = new ArrayList<>();
		for (int i = 0; i < waiters; i++) {
			LeaseHolder waiter = newHolder("waiter-" + i);
			holders.add(waiter);
			takes.add(CompletableFuture.supplyAsync(() -> take(counted, key, waiter, LONG), this.threads));
			awaitQueued(key, i + 1);
		}
		Thread.sleep(300);
		long asleep = counter.statements();
		Thread.sleep(1000);
		assertThat(counter.statements() - asleep).as("statements in a second while %d waiters sleep", waiters)
			.isLessThanOrEqualTo(20);
		LeaseHolder previous = holder;
		for (int i = 0; i < waiters; i++) {
			long before = counter.statements();
			assertThat(counted.release(key, previous)).isInstanceOf(Released.class);
			assertThat(takes.get(i).get(TOLERANCE.toMillis(), TimeUnit.MILLISECONDS)).as("waiter %d", i)
				.isInstanceOf(Taken.class);
			if (i == 0) {
				Thread.sleep(200);
				assertThat(counter.statements() - before)
					.as("statements of a handoff to the first of %d waiters, and 200 ms after", waiters)
					.isLessThanOrEqualTo(15);
			}
			previous = holders.get(i);
		}
		assertThat(counted.release(key, previous)).isInstanceOf(Released.class);
	}

	@Test
	@DisplayName("Identity 2, 3: keys differing only by letter case or a trailing space are different leases in the database too")
	void keysDifferingByCaseOrTrailingSpaceAreDifferentLeases() {
		String base = "identity:" + UUID.randomUUID() + ":";
		LeaseHolder holder = newHolder("holder");
		LeaseHolder other = newHolder("other");
		assertThat(this.host.tryTake(LeaseKey.of(base + "A"), holder, LONG)).isInstanceOf(Taken.class);
		assertThat(this.host.tryTake(LeaseKey.of(base + "a"), other, LONG)).isInstanceOf(Taken.class);
		assertThat(this.host.tryTake(LeaseKey.of(base + "a "), other, LONG)).isInstanceOf(Taken.class);
		assertThat(this.host.remaining(LeaseKey.of(base + "a"), holder)).isEmpty();
		assertThat(this.host.release(LeaseKey.of(base + "a "), holder)).isNotInstanceOf(Released.class);
		assertThat(this.host.remaining(LeaseKey.of(base + "A"), holder)).isPresent();
		assertThat(
				this.host.remaining(LeaseKey.of(base + "a"), LeaseHolder.of(other.asString().toUpperCase(Locale.ROOT))))
			.isEmpty();
		assertThat(rows(LeaseKey.of(base + "A")) + rows(LeaseKey.of(base + "a")) + rows(LeaseKey.of(base + "a ")))
			.isEqualTo(3);
	}

	@Test
	@DisplayName("State 3: a released key, a waiter's finished take and a passed grant leave no rows behind")
	void releasedAndPassedKeysLeaveNoRows() throws Exception {
		LeaseKey released = newKey();
		LeaseHolder holder = newHolder("holder");
		this.host.tryTake(released, holder, LONG);
		assertThat(rows(released)).isEqualTo(1);
		this.host.release(released, holder);
		assertThat(rows(released)).isZero();
		LeaseKey handed = newKey();
		LeaseHolder waiter = newHolder("waiter");
		this.host.tryTake(handed, holder, LONG);
		CompletableFuture<TakeResult> waiting = CompletableFuture
			.supplyAsync(() -> take(this.host, handed, waiter, LONG), this.threads);
		awaitQueued(handed, 1);
		this.host.release(handed, holder);
		assertThat(waiting.get(TOLERANCE.toMillis(), TimeUnit.MILLISECONDS)).isInstanceOf(Taken.class);
		this.host.release(handed, waiter);
		assertThat(rows(handed)).isZero();
		// The waiter took its grant up from a notification, leaving its row to the
		// listener or its next release: the listener may have gathered it and not yet
		// deleted it when the release looked.
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.untilAsserted(() -> assertThat(waiterRows(handed)).isZero());
		LeaseKey passed = newKey();
		this.host.tryTake(passed, holder, Duration.ofMillis(100));
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			LeaseKey other = newKey();
			this.host.tryTake(other, holder, LONG);
			this.host.release(other, holder);
			assertThat(rows(passed)).isZero();
		});
	}

	@Test
	@DisplayName("Issue 16: with no call at all, a passed grant's row is removed within the clean-up interval")
	void passedGrantRowIsRemovedWithNoCaller() {
		Duration interval = Duration.ofMillis(300);
		JdbcLeaseHost cleaning = JdbcLeaseHost.builder(this.dataSource).cleanupInterval(interval).build();
		this.closeables.add(0, cleaning);
		LeaseKey key = newKey();
		Duration term = Duration.ofMillis(100);
		assertThat(cleaning.tryTake(key, newHolder("holder"), term)).isInstanceOf(Taken.class);
		long taken = System.nanoTime();
		assertThat(rows(key)).isOne();
		// The bound: the term, one interval, and one clean-up's own time.
		await().atMost(term.plus(interval).plus(TOLERANCE))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> rows(key) == 0);
		assertThat(Duration.ofNanos(System.nanoTime() - taken)).isLessThan(term.plus(interval).plus(TOLERANCE));
	}

	@Test
	@DisplayName("Issue 16: a page of grants spends no slot on passed grants with nobody queued, which read as free")
	void pageOfGrantsPassesOverPassedRows() {
		String prefix = "jdbc:page:" + UUID.randomUUID() + ":";
		long now = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
		byte[] holder = newHolder("holder").bytes();
		String insert = "INSERT INTO LEASE_KEYS (LEASE_KEY, HOLDER, EXPIRES_AT, LATEST, QUEUED, ARRIVALS)"
				+ " VALUES (?, ?, ?, ?, 0, 0)";
		for (int i = 0; i < 150; i++) {
			byte[] key = LeaseKey.of(prefix + "a" + (1000 + i)).bytes();
			this.jdbc.update(insert, key, holder, now - 60_000_000L, now - 120_000_000L);
		}
		List<LeaseKey> standing = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			standing.add(LeaseKey.of(prefix + "b" + (1000 + i)));
			this.jdbc.update(insert, standing.get(i).bytes(), holder, now + 600_000_000L, now);
		}
		GrantsPage page = this.host.grants(KeyCursor.of(LeaseKey.of(prefix)), 100);
		this.jdbc.update("DELETE FROM LEASE_KEYS WHERE LEASE_KEY > ? AND LEASE_KEY < ?", LeaseKey.of(prefix).bytes(),
				LeaseKey.of(prefix + "c").bytes());
		assertThat(page.grants().stream().map(Lease::key).filter((key) -> key.asString().startsWith(prefix)))
			.containsExactlyElementsOf(standing);
	}

	@Test
	@DisplayName("Host: failures: a connection that fails in the middle of a release leaves the grant and the queue as they were")
	void connectionFailingMidReleaseLeavesNoHalfWrittenState() throws Exception {
		AtomicBoolean armed = new AtomicBoolean();
		JdbcLeaseHost failing = host(failingOn(new DriverManagerDataSource(url()), "UPDATE LEASE_KEYS", armed));
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		LeaseHolder waiter = newHolder("waiter");
		Lease held = ((Taken) this.host.tryTake(key, holder, LONG)).lease();
		CompletableFuture<TakeResult> waiting = CompletableFuture.supplyAsync(() -> take(this.host, key, waiter, LONG),
				this.threads);
		awaitQueued(key, 1);
		armed.set(true);
		assertThatExceptionOfType(LeaseHostException.class).isThrownBy(() -> failing.release(key, holder));
		assertThat(this.jdbc.queryForObject("SELECT HOLDER FROM LEASE_KEYS WHERE LEASE_KEY = ?", byte[].class,
				(Object) key.bytes()))
			.isEqualTo(holder.bytes());
		assertThat(this.jdbc.queryForObject("SELECT EXPIRES_AT FROM LEASE_KEYS WHERE LEASE_KEY = ?", Long.class,
				(Object) key.bytes()))
			.isEqualTo(ChronoUnit.MICROS.between(Instant.EPOCH, held.expiresAt()));
		assertThat(this.jdbc.queryForObject(
				"SELECT COUNT(*) FROM LEASE_WAITERS WHERE LEASE_KEY = ? AND GRANTED_EXPIRES_AT IS NULL", Integer.class,
				(Object) key.bytes()))
			.isOne();
		assertThat(this.host.remaining(key, holder)).isPresent();
		assertThat(waiting).isNotDone();
		assertThat(this.host.release(key, holder)).isInstanceOf(Released.class);
		assertThat(waiting.get(TOLERANCE.toMillis(), TimeUnit.MILLISECONDS)).isInstanceOf(Taken.class);
	}

	@Test
	@DisplayName("Check 3.1, 3.2 (Invariant 3): the key of a holder killed with kill -9 stays held through its instant and frees at it")
	void killedHolderKeepsTheKeyThroughItsInstant() throws Exception {
		Assumptions.assumeTrue(sharedAcrossProcesses(), "another process cannot reach " + platform() + " in memory");
		LeaseKey key = newKey();
		LeaseHolder killed = newHolder("killed");
		Duration term = Duration.ofSeconds(3);
		Process child = startChild(key, killed, term);
		Instant childExpiresAt;
		try {
			childExpiresAt = takenBy(child);
		}
		finally {
			child.destroyForcibly();
			child.waitFor(10, TimeUnit.SECONDS);
		}
		assertThat(child.isAlive()).isFalse();
		LeaseHolder next = newHolder("next");
		assertThat(this.host.tryTake(key, next, LONG)).as("Check 3.1: held after the kill").isInstanceOf(Held.class);
		assertThat(this.host.remaining(key, killed)).as("the killed holder's grant stands").isPresent();
		TakeResult result = this.host.take(key, next, LONG);
		assertThat(result).isInstanceOf(Taken.class);
		Lease lease = ((Taken) result).lease();
		assertThat(lease.expiresAt().minus(LONG)).as("Check 3.2: not granted before the killed holder's instant")
			.isAfterOrEqualTo(childExpiresAt);
	}

	@Test
	@DisplayName("Check 3.1, 3.2, Non-goal 3, Invariant 4.2: waiters queued behind a holder killed with kill -9 are answered at its instant, in arrival order, and the history holds")
	void waitersBehindAKilledHolderAreAnsweredAtItsInstantInArrivalOrder() throws Exception {
		Assumptions.assumeTrue(sharedAcrossProcesses(), "another process cannot reach " + platform() + " in memory");
		LeaseKey key = newKey();
		LeaseHolder killed = newHolder("killed");
		Duration term = Duration.ofSeconds(5);
		RecordingLeaseHost host = new RecordingLeaseHost(this.host);
		Instant launched = host.now();
		Process child = startChild(key, killed, term);
		try {
			Lease grant = new Lease(key, killed, takenBy(child));
			Event childGrant = KilledHolderWaiters.childGrant(grant, term, launched, host.now());
			// destroyForcibly is SIGKILL on this platform: kill -9.
			KilledHolderWaiters.assertHandedOnInArrivalOrder(host, childGrant, 3,
					() -> child.destroyForcibly().waitFor(10, TimeUnit.SECONDS),
					() -> JdbcTestServers.rows(this.dataSource, key));
		}
		finally {
			child.destroyForcibly();
		}
	}

	// A holder in a JVM of its own that takes the key and pauses until it is killed.
	private Process startChild(LeaseKey key, LeaseHolder holder, Duration term) throws IOException {
		return new ProcessBuilder(javaCommand(), "-cp", testClassPath(), LeaseHolderProcess.class.getName(), url(),
				key.asString(), holder.asString(), Long.toString(term.toMillis()))
			.redirectErrorStream(true)
			.start();
	}

	// The instant of the grant the child took, as it printed it.
	private Instant takenBy(Process child) throws Exception {
		BufferedReader output = new BufferedReader(
				new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
		CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> {
			try {
				String line;
				while ((line = output.readLine()) != null && !line.startsWith("TAKEN ")) {
					// the child's start-up output
				}
				return line;
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}, this.threads);
		String line = answer.get(60, TimeUnit.SECONDS);
		assertThat(line).as("the child's answer").isNotNull();
		return Instant.parse(line.substring("TAKEN ".length()).trim());
	}

	void awaitQueued(LeaseKey key, int waiters) {
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> this.jdbc.queryForObject(
					"SELECT COUNT(*) FROM LEASE_WAITERS WHERE LEASE_KEY = ? AND GRANTED_EXPIRES_AT IS NULL",
					Integer.class, (Object) key.bytes()) == waiters);
	}

	int rows(LeaseKey key) {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM LEASE_KEYS WHERE LEASE_KEY = ?", Integer.class,
				(Object) key.bytes());
	}

	int waiterRows(LeaseKey key) {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM LEASE_WAITERS WHERE LEASE_KEY = ?", Integer.class,
				(Object) key.bytes());
	}

	static TakeResult take(JdbcLeaseHost host, LeaseKey key, LeaseHolder holder, Duration duration) {
		try {
			return host.take(key, holder, duration);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	static LeaseKey newKey() {
		return LeaseKey.of("jdbc:" + UUID.randomUUID());
	}

	static LeaseHolder newHolder(String role) {
		return LeaseHolder.of(role + ":" + UUID.randomUUID());
	}

	// A data source whose connections fail, as a dropped connection does, at the first
	// statement that contains the given text once armed (on PostgreSQL the writes of a
	// release that hands the key on are one statement, with the others).
	static DataSource failingOn(DataSource target, String statementPart, AtomicBoolean armed) {
		return (DataSource) Proxy.newProxyInstance(JdbcLeaseHostChecks.class.getClassLoader(),
				new Class<?>[] { DataSource.class }, (proxy, method, args) -> {
					Object result = invoke(target, method, args);
					if (result instanceof Connection connection) {
						return failingConnection(connection, statementPart, armed);
					}
					return result;
				});
	}

	private static Connection failingConnection(Connection target, String statementPart, AtomicBoolean armed) {
		return (Connection) Proxy.newProxyInstance(JdbcLeaseHostChecks.class.getClassLoader(),
				new Class<?>[] { Connection.class }, (proxy, method, args) -> {
					if (method.getName().equals("prepareStatement") && args != null && args[0] instanceof String sql
							&& sql.contains(statementPart) && armed.compareAndSet(true, false)) {
						target.abort(Runnable::run);
						throw new SQLException("Connection dropped (test)", "08006");
					}
					return invoke(target, method, args);
				});
	}

	private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

	private static String javaCommand() {
		return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
	}

	private static String testClassPath() {
		String surefire = System.getProperty("surefire.test.class.path");
		return (surefire != null && !surefire.isBlank()) ? surefire : System.getProperty("java.class.path");
	}

}
