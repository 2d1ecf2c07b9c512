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

package dev.lease.host.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.tck.faults.KilledHolderWaiters;
import dev.lease.tck.history.Event;
import dev.lease.tck.history.RecordingLeaseHost;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisLeaseHost} with a holder whose JVM is killed with
 * {@code kill -9}.
 *
 * @author Lease contributors
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisKilledHolderIntegrationTests {

	private static final Duration DURATION = Duration.ofSeconds(6);

	private final String prefix = "lease-test-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	private RedisTestServer server;

	private RedisLeaseHost host;

	@BeforeAll
	void startHost() {
		this.server = RedisTestServer.start();
		this.host = RedisLeaseHost.builder(this.server.lettuce()).keyPrefix(this.prefix).build();
	}

	@AfterAll
	void stopHost() {
		this.host.close();
		this.server.close();
	}

	@Test
	@DisplayName("Check 3.1, 3.2 (Invariant 2, 3): a holder killed with kill -9 keeps the key through its instant; it is takeable at the instant, not earlier")
	void killedHolderKeepsKeyUntilItsInstant() throws Exception {
		LeaseKey key = LeaseKey.of("killed-" + UUID.randomUUID());
		LeaseHolder child = LeaseHolder.of("child-" + UUID.randomUUID());
		Process process = startChild(this.prefix, key, child, DURATION);
		try {
			Instant childExpiresAt = takenBy(process);
			kill9(process);
			assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
			assertThat(process.exitValue()).isEqualTo(137);
			// Check 3.1: the dead holder's grant stands.
			assertThat(this.host.remaining(key, child)).isPresent();
			LeaseHolder next = LeaseHolder.of("next-" + UUID.randomUUID());
			TryTakeResult result = this.host.tryTake(key, next, DURATION);
			assertThat(result).isInstanceOf(Held.class);
			long deadline = System.nanoTime() + DURATION.plusSeconds(10).toNanos();
			while (result instanceof Held && System.nanoTime() < deadline) {
				Thread.sleep(5);
				result = this.host.tryTake(key, next, DURATION);
			}
			// Check 3.2: taken at the instant, on the host's clock, not earlier.
			assertThat(result).isInstanceOf(Taken.class);
			Instant grantedAt = ((Taken) result).expiresAt().minus(DURATION);
			assertThat(grantedAt).isAfterOrEqualTo(childExpiresAt);
			assertThat(grantedAt).isBefore(childExpiresAt.plusSeconds(2));
			assertThat(this.host.remaining(key, child)).isEmpty();
			this.host.release(key, next);
		}
		finally {
			process.destroyForcibly();
		}
	}

	@Test
	@DisplayName("Check 3.1, 3.2, Non-goal 3, Invariant 4.2: waiters queued behind a holder killed with kill -9 are answered at its instant, in arrival order, and the history holds")
	void waitersBehindAKilledHolderAreAnsweredAtItsInstantInArrivalOrder() throws Exception {
		String prefix = this.prefix + "waiters-";
		LeaseKey key = LeaseKey.of("killed-" + UUID.randomUUID());
		LeaseHolder child = LeaseHolder.of("child-" + UUID.randomUUID());
		Duration term = Duration.ofSeconds(5);
		try (RedisLeaseHost waiting = RedisLeaseHost.builder(this.server.lettuce()).keyPrefix(prefix).build()) {
			RecordingLeaseHost host = new RecordingLeaseHost(waiting);
			Instant launched = host.now();
			Process process = startChild(prefix, key, child, term);
			try {
				Lease grant = new Lease(key, child, takenBy(process));
				Event childGrant = KilledHolderWaiters.childGrant(grant, term, launched, host.now());
				KilledHolderWaiters.assertHandedOnInArrivalOrder(host, childGrant, 3, () -> {
					kill9(process);
					return process.waitFor(10, TimeUnit.SECONDS);
				}, () -> this.server.keys(prefix));
			}
			finally {
				process.destroyForcibly();
			}
		}
	}

	// A holder in a child JVM that takes the key and waits to be killed.
	private Process startChild(String prefix, LeaseKey key, LeaseHolder holder, Duration duration) throws IOException {
		String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
		return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
				RedisHolderProcess.class.getName(), this.server.host(), Integer.toString(this.server.port()), prefix,
				key.asString(), holder.asString(), Long.toString(duration.toMillis()))
			.redirectError(ProcessBuilder.Redirect.DISCARD)
			.start();
	}

	// The instant of the grant the child took, as it printed it.
	private static Instant takenBy(Process process) throws Exception {
		BufferedReader reader = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		String line = CompletableFuture.supplyAsync(() -> readLine(reader)).get(60, TimeUnit.SECONDS);
		assertThat(line).startsWith("TAKEN ");
		long micros = Long.parseLong(line.substring("TAKEN ".length()));
		return Instant.EPOCH.plus(Duration.ofNanos(micros * 1000));
	}

	private static void kill9(Process process) throws Exception {
		Process kill = new ProcessBuilder("kill", "-9", Long.toString(process.pid())).inheritIO().start();
		if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
			process.destroyForcibly();
		}
	}

	private static String readLine(BufferedReader reader) {
		try {
			String line = reader.readLine();
			return (line != null) ? line : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
