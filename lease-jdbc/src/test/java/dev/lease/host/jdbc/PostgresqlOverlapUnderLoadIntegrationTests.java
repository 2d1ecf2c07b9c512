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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.tck.history.HistoryAssertions;
import dev.lease.tck.history.RecordingLeaseHost;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JDBC host on PostgreSQL with every core busy: racers try taking one key with short
 * terms, their statements waiting for the key's row behind releases and clean-ups, and
 * their database sessions descheduled between reading the clock and writing. No grant may
 * overlap another, and no try take may be answered an instant dated before its call.
 *
 * @author Lease contributors
 */
class PostgresqlOverlapUnderLoadIntegrationTests {

	private static final int RACERS = 16;

	private static final Duration RUN = Duration.ofSeconds(20);

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final AtomicBoolean busy = new AtomicBoolean(true);

	private HikariDataSource dataSource;

	private JdbcLeaseHost host;

	// The database the racers race on.
	HikariDataSource dataSource() {
		return JdbcTestServers.postgres();
	}

	@AfterEach
	void stop() throws InterruptedException {
		this.busy.set(false);
		this.threads.shutdownNow();
		this.threads.awaitTermination(30, TimeUnit.SECONDS);
		if (this.host != null) {
			this.host.close();
		}
		if (this.dataSource != null) {
			this.dataSource.close();
		}
	}

	@Test
	@DisplayName("Invariant 1.1, 1.2, Check 1.1, Fence 1: sixteen racers try taking and releasing one key with short terms on busy cores never hold it together, and no grant is dated before its call")
	void racersOnOneKeyUnderLoadNeverOverlap() throws Exception {
		this.dataSource = dataSource();
		this.dataSource.setMaximumPoolSize(RACERS + 8);
		this.host = new JdbcLeaseHost(this.dataSource);
		RecordingLeaseHost recording = new RecordingLeaseHost(this.host);
		for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
			this.threads.execute(this::spin);
		}
		LeaseKey key = LeaseKey.of("overlap:" + UUID.randomUUID());
		ConcurrentLinkedQueue<String> backdated = new ConcurrentLinkedQueue<>();
		AtomicLong grants = new AtomicLong();
		long end = System.nanoTime() + RUN.toNanos();
		List<Future<?>> racers = new ArrayList<>();
		for (int r = 0; r < RACERS; r++) {
			racers.add(this.threads.submit(() -> {
				race(recording, key, end, backdated, grants);
				return null;
			}));
		}
		for (Future<?> racer : racers) {
			racer.get(RUN.toSeconds() + 60, TimeUnit.SECONDS);
		}
		this.busy.set(false);
		assertThat(grants.get()).as("grants made").isGreaterThan(RACERS);
		assertThat(backdated).as("Fence 1: try takes answered an instant dated before the call").isEmpty();
		HistoryAssertions.assertAllowed(recording);
	}

	// Fresh holders, terms of 20 to 300 ms; a grant is released at once, a little later,
	// or left to pass, so that the key's row is deleted under the racers' feet.
	private void race(RecordingLeaseHost recording, LeaseKey key, long end, ConcurrentLinkedQueue<String> backdated,
			AtomicLong grants) throws InterruptedException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		while (System.nanoTime() < end) {
			LeaseHolder holder = LeaseHolder.of("racer:" + UUID.randomUUID());
			Duration term = Duration.ofMillis(20 + random.nextInt(280));
			Instant called = recording.now();
			if (!(recording.tryTake(key, holder, term) instanceof Taken taken)) {
				continue;
			}
			if (taken.lease().expiresAt().isBefore(called.plus(term).minus(HistoryAssertions.SKEW))) {
				backdated.add(taken.lease() + " for a try take of " + term + " called at " + called);
			}
			grants.incrementAndGet();
			int after = random.nextInt(3);
			if (after == 0) {
				recording.release(key, holder);
			}
			else if (after == 1) {
				Thread.sleep(random.nextLong(term.toMillis() / 2 + 1));
				recording.release(key, holder);
			}
		}
	}

	private void spin() {
		long sum = 0;
		while (this.busy.get()) {
			for (int i = 0; i < 100_000; i++) {
				sum += i * 31L ^ sum;
			}
		}
		if (sum == 42) {
			System.out.println(sum);
		}
	}

}
