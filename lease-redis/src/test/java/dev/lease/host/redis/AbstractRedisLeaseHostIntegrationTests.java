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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;

import dev.lease.GrantsPage;
import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.ReentrantTakeException;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.Unavailable;
import dev.lease.tck.Stalls;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Focused tests of {@link RedisLeaseHost} against a real Redis, run once per client.
 *
 * @author Lease contributors
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractRedisLeaseHostIntegrationTests {

	private static final Duration LONG = Duration.ofSeconds(30);

	private static final String QUEUED = """
			return redis.call('ZCARD', KEYS[1] .. ':q')""";

	private RedisTestServer server;

	private RedisConnectionFactory connectionFactory;

	private RedisLeaseHost host;

	private final String prefix = "lease-test-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	private final ExecutorService executor = Executors.newCachedThreadPool();

	abstract RedisConnectionFactory connectionFactory(RedisTestServer server);

	@BeforeAll
	void startHost() {
		this.server = RedisTestServer.start();
		this.connectionFactory = connectionFactory(this.server);
		this.host = RedisLeaseHost.builder(this.connectionFactory).keyPrefix(this.prefix).build();
	}

	@AfterAll
	void stopHost() {
		this.executor.shutdownNow();
		this.host.close();
		this.server.close();
	}

	@Test
	@DisplayName("Operation 6, 7: try_take on a free key is Taken, by another holder Held")
	void tryTakeOnFreeKeyIsTakenAndHeldForAnother() {
		LeaseKey key = key();
		TryTakeResult first = this.host.tryTake(key, holder(), LONG);
		assertThat(first).isInstanceOf(Taken.class);
		Instant expiresAt = ((Taken) first).expiresAt();
		assertThat(expiresAt).isBetween(Instant.now().plus(LONG).minusSeconds(5),
				Instant.now().plus(LONG).plusSeconds(5));
		assertThat(this.host.tryTake(key, holder(), LONG)).isInstanceOf(Held.class);
	}

	@Test
	@DisplayName("Non-goal 1: a holder taking a key it holds or waits for is refused and the grant is left as it was")
	void reentrantTakeIsRefusedAndChangesNothing() throws Exception {
		LeaseKey key = key();
		LeaseHolder holder = holder();
		Taken taken = (Taken) this.host.tryTake(key, holder, LONG);
		assertThatExceptionOfType(ReentrantTakeException.class).isThrownBy(() -> this.host.tryTake(key, holder, LONG));
		assertThatExceptionOfType(ReentrantTakeException.class).isThrownBy(() -> this.host.take(key, holder, LONG));
		assertThat(this.host.grants(1000)).contains(taken.lease());
		LeaseHolder waiter = holder();
		Future<TakeResult> waiting = this.executor.submit(() -> this.host.take(key, waiter, LONG));
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThatExceptionOfType(ReentrantTakeException.class)
				.isThrownBy(() -> this.host.tryTake(key, waiter, LONG)));
		assertThat(this.host.release(key, holder)).isInstanceOf(Released.class);
		assertThat(waiting.get(5, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
		this.host.release(key, waiter);
	}

	@Test
	@DisplayName("Operation 8, 9: remaining answers the holder's term and none to anyone else")
	void remainingAnswersHolderOnly() {
		LeaseKey key = key();
		LeaseHolder holder = holder();
		this.host.tryTake(key, holder, LONG);
		Optional<Duration> remaining = this.host.remaining(key, holder);
		assertThat(remaining).hasValueSatisfying((term) -> assertThat(term).isPositive().isLessThanOrEqualTo(LONG));
		assertThat(this.host.remaining(key, holder())).isEmpty();
		assertThat(this.host.remaining(key(), holder)).isEmpty();
	}

	@Test
	@DisplayName("Check 5.2 (Operation 12, 14): release by a non-holder is NotHeld and writes nothing")
	void releaseByNonHolderIsNotHeldAndWritesNothing() {
		LeaseKey key = key();
		LeaseHolder holder = holder();
		this.host.tryTake(key, holder, LONG);
		byte[] before = rawState(key);
		assertThat(this.host.release(key, holder())).isInstanceOf(NotHeld.class);
		assertThat(this.host.remaining(key, holder())).isEmpty();
		assertThat(rawState(key)).isEqualTo(before);
		assertThat(this.host.release(key(), holder)).isInstanceOf(NotHeld.class);
	}

	@Test
	@DisplayName("Operation 11: release by the holder frees the key and leaves no Redis key behind")
	void releaseFreesKeyAndLeavesNothing() {
		LeaseKey key = key();
		LeaseHolder holder = holder();
		this.host.tryTake(key, holder, LONG);
		assertThat(redisKeys()).isNotEmpty();
		assertThat(this.host.release(key, holder)).isInstanceOf(Released.class);
		assertThat(this.host.release(key, holder)).isInstanceOf(NotHeld.class);
		assertThat(redisKeys()).noneMatch((name) -> name.contains(encoded(key)));
		assertThat(this.host.tryTake(key, holder(), LONG)).isInstanceOf(Taken.class);
	}

	@Test
	@DisplayName("Check 2.2, 3.2 (State 2): a held key is Held before its instant and takeable at it; the expired key is garbage collected")
	void expiredGrantIsFreeAndCollected() {
		LeaseKey key = key();
		LeaseHolder holder = holder();
		Taken first = (Taken) this.host.tryTake(key, holder, Duration.ofSeconds(2));
		assertThat(this.host.tryTake(key, holder(), LONG)).isInstanceOf(Held.class);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.host.remaining(key, holder).isEmpty());
		assertThat(this.host.release(key, holder)).isInstanceOf(NotHeld.class);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> redisKeys().stream().noneMatch((name) -> name.contains(encoded(key))));
		Taken second = (Taken) this.host.tryTake(key, holder(), LONG);
		assertThat(second.expiresAt().minus(LONG)).isAfterOrEqualTo(first.expiresAt());
	}

	@Test
	@DisplayName("Operation 1, 2 (waking): a release hands the key to the waiter at once, woken by pub/sub")
	void releaseHandsKeyToWaiterPromptly() throws Exception {
		LeaseKey key = key();
		LeaseHolder holder = holder();
		LeaseHolder waiter = holder();
		this.host.tryTake(key, holder, LONG);
		Future<TakeResult> waiting = this.executor.submit(() -> this.host.take(key, waiter, LONG));
		awaitQueued(key, 1);
		TakeResult result;
		try (Stalls stalls = new Stalls()) {
			long released = System.nanoTime();
			assertThat(this.host.release(key, holder)).isInstanceOf(Released.class);
			result = waiting.get(LONG.toSeconds(), TimeUnit.SECONDS);
			// Less the time the machine took from the test meanwhile; without the message
			// the waiter would look again only at half its term.
			assertThat(Duration.ofNanos(System.nanoTime() - released).minus(stalls.lost()))
				.isLessThan(Duration.ofSeconds(2));
		}
		assertThat(result).isInstanceOf(Taken.class);
		assertThat(this.host.remaining(key, waiter)).isPresent();
		assertThat(this.host.release(key, waiter)).isInstanceOf(Released.class);
		assertThat(redisKeys()).noneMatch((name) -> name.contains(encoded(key)));
	}

	@Test
	@DisplayName("Operation 2: when the holder's instant passes, the waiter is granted the key as of that instant")
	void expiryHandsKeyToWaiterAsOfTheInstant() throws Exception {
		LeaseKey key = key();
		Taken first = (Taken) this.host.tryTake(key, holder(), Duration.ofSeconds(2));
		LeaseHolder waiter = holder();
		TakeResult result = this.host.take(key, waiter, Duration.ofSeconds(2));
		assertThat(result).isInstanceOf(Taken.class);
		assertThat(((Taken) result).expiresAt()).isEqualTo(first.expiresAt().plusSeconds(2));
		this.host.release(key, waiter);
	}

	@Test
	@DisplayName("Operation 2, 4: at the instant the first waiter is handed the key; waiters whose bound is that instant are Unavailable")
	void waitersBehindTheHandedWaiterAreUnavailable() throws Exception {
		LeaseKey key = key();
		Taken standing = (Taken) this.host.tryTake(key, holder(), Duration.ofSeconds(4));
		List<Future<TakeResult>> results = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			LeaseHolder waiter = holder();
			results.add(this.executor.submit(() -> this.host.take(key, waiter, LONG)));
		}
		awaitQueued(key, 3);
		// The first to arrive is handed the key at the instant and holds it past the
		// others' bound (the same instant): they are Unavailable.
		List<Taken> taken = new ArrayList<>();
		int unavailable = 0;
		for (Future<TakeResult> result : results) {
			TakeResult answer = result.get(15, TimeUnit.SECONDS);
			if (answer instanceof Taken grant) {
				taken.add(grant);
			}
			else {
				assertThat(answer).isInstanceOf(Unavailable.class);
				unavailable++;
			}
		}
		assertThat(taken).hasSize(1);
		assertThat(unavailable).isEqualTo(2);
		assertThat(taken.get(0).expiresAt()).isEqualTo(standing.expiresAt().plus(LONG));
		this.host.release(key, taken.get(0).lease().holder());
		assertThat(redisKeys()).noneMatch((name) -> name.contains(encoded(key)));
	}

	@Test
	@DisplayName("Non-goal 3: on release the key goes to the first waiter, then the next, in arrival order")
	void releasesHandTheKeyOnInArrivalOrder() throws Exception {
		LeaseKey key = key();
		LeaseHolder holder = holder();
		this.host.tryTake(key, holder, LONG);
		LeaseHolder first = holder();
		LeaseHolder second = holder();
		Future<TakeResult> firstResult = this.executor.submit(() -> this.host.take(key, first, LONG));
		awaitQueued(key, 1);
		Future<TakeResult> secondResult = this.executor.submit(() -> this.host.take(key, second, LONG));
		awaitQueued(key, 2);
		this.host.release(key, holder);
		assertThat(firstResult.get(5, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
		assertThat(secondResult.isDone()).isFalse();
		this.host.release(key, first);
		assertThat(secondResult.get(5, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
		this.host.release(key, second);
	}

	@Test
	@DisplayName("Interruption: an interrupted waiter is withdrawn and the key goes to nobody in its name")
	void interruptedWaiterIsWithdrawn() throws Exception {
		LeaseKey key = key();
		LeaseHolder holder = holder();
		LeaseHolder waiter = holder();
		this.host.tryTake(key, holder, LONG);
		CompletableFuture<Throwable> outcome = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				this.host.take(key, waiter, LONG);
				outcome.complete(null);
			}
			catch (Throwable ex) {
				outcome.complete(ex);
			}
		});
		thread.start();
		awaitQueued(key, 1);
		thread.interrupt();
		assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
		this.host.release(key, holder);
		assertThat(this.host.remaining(key, waiter)).isEmpty();
		assertThat(redisKeys()).noneMatch((name) -> name.contains(encoded(key)));
	}

	@Test
	@DisplayName("Identity 1-4: keys differing by one byte, by case or by normalisation form are different leases")
	void keysAreBytes() {
		LeaseHolder holder = holder();
		String base = UUID.randomUUID().toString();
		List<LeaseKey> keys = List.of(LeaseKey.of(base + "a"), LeaseKey.of(base + "A"), LeaseKey.of(base + "\u00e9"),
				LeaseKey.of(base + "e\u0301"), LeaseKey.of(bytes(base, 0x00)), LeaseKey.of(bytes(base, 0xff)),
				LeaseKey.of(bytes(base, 0xfe)));
		for (LeaseKey key : keys) {
			assertThat(this.host.tryTake(key, holder, LONG)).isInstanceOf(Taken.class);
		}
		for (LeaseKey key : keys) {
			assertThat(this.host.release(key, holder)).isInstanceOf(Released.class);
		}
	}

	@Test
	@DisplayName("Identity 2: holders are stored as bytes: a binary holder reads back exactly")
	void holdersAreBytes() {
		LeaseKey key = key();
		LeaseHolder holder = LeaseHolder.of(bytes(UUID.randomUUID().toString(), 0xc3));
		LeaseHolder other = LeaseHolder.of(bytes(holder.asString().substring(0, 36), 0xc4));
		Taken taken = (Taken) this.host.tryTake(key, holder, LONG);
		assertThat(this.host.grants(10_000)).contains(taken.lease());
		assertThat(this.host.release(key, other)).isInstanceOf(NotHeld.class);
		assertThat(this.host.release(key, holder)).isInstanceOf(Released.class);
	}

	@Test
	@DisplayName("Check 1.1: threads racing try_take on one key yield exactly one Taken")
	void racingTryTakesYieldOneTaken() throws Exception {
		LeaseKey key = key();
		CountDownLatch start = new CountDownLatch(1);
		List<Future<TryTakeResult>> results = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			LeaseHolder holder = holder();
			results.add(this.executor.submit(() -> {
				start.await();
				return this.host.tryTake(key, holder, LONG);
			}));
		}
		start.countDown();
		int taken = 0;
		for (Future<TryTakeResult> result : results) {
			taken += (result.get(10, TimeUnit.SECONDS) instanceof Taken) ? 1 : 0;
		}
		assertThat(taken).isOne();
	}

	@Test
	@DisplayName("Non-goal 10: a duration that is not positive or finer than a microsecond is refused before Redis is asked")
	void badDurationsAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.host.tryTake(key(), holder(), Duration.ZERO));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.host.tryTake(key(), holder(), Duration.ofMillis(-1)));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.host.tryTake(key(), holder(), Duration.ofNanos(1500)));
		assertThatIllegalArgumentException().isThrownBy(() -> this.host.take(key(), holder(), Duration.ofDays(40_000)));
	}

	@Test
	@DisplayName("EVALSHA falls back to the script itself when Redis lost its script cache")
	void scriptIsSentAgainAfterScriptFlush() {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			connection.scriptingCommands().scriptFlush();
		}
		LeaseKey key = key();
		LeaseHolder holder = holder();
		assertThat(this.host.tryTake(key, holder, LONG)).isInstanceOf(Taken.class);
		assertThat(this.host.release(key, holder)).isInstanceOf(Released.class);
	}

	@Test
	@DisplayName("grants lists the standing grants of this prefix")
	void grantsListsStandingGrants() {
		LeaseKey key = key();
		LeaseHolder holder = holder();
		Lease lease = ((Taken) this.host.tryTake(key, holder, LONG)).lease();
		assertThat(this.host.grants(10_000)).contains(lease);
		this.host.release(key, holder);
		assertThat(this.host.grants(10_000)).doesNotContain(lease);
	}

	@Test
	@DisplayName("Grants 1, Grants 2: a pass of one-grant pages lists every grant of the prefix exactly once, keys a SCAN step finds beyond the limit carried to the next page")
	void passOfOneGrantPagesListsEveryGrantOnce() {
		List<Lease> held = new ArrayList<>();
		for (int i = 0; i < 300; i++) {
			held.add(((Taken) this.host.tryTake(key(), holder(), LONG)).lease());
		}
		List<Lease> listed = new ArrayList<>();
		String cursor = null;
		do {
			GrantsPage page = this.host.grants(cursor, 1);
			assertThat(page.grants()).hasSizeLessThanOrEqualTo(1);
			listed.addAll(page.grants());
			cursor = page.next();
		}
		while (cursor != null);
		// Other tests of this class leave grants under the same prefix.
		Set<LeaseKey> keys = held.stream().map(Lease::key).collect(Collectors.toSet());
		assertThat(listed).filteredOn((lease) -> keys.contains(lease.key())).containsExactlyInAnyOrderElementsOf(held);
		assertThatIllegalArgumentException().isThrownBy(() -> this.host.grants("not a cursor", 10));
	}

	@Test
	@DisplayName("Grants 5: a page and the exact read load the script again when Redis lost its script cache")
	void grantsAfterScriptFlushLoadTheScriptAgain() {
		LeaseKey key = key();
		Lease lease = ((Taken) this.host.tryTake(key, holder(), LONG)).lease();
		flushScripts();
		assertThat(this.host.grants(null, 1000).grants()).contains(lease);
		flushScripts();
		assertThat(this.host.grant(key)).contains(lease);
	}

	private void flushScripts() {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			connection.scriptingCommands().scriptFlush();
		}
	}

	private void awaitQueued(LeaseKey key, int waiters) {
		// The waiter's entry is in the key's queue, a sorted set beside the key.
		await().atMost(Duration.ofSeconds(5)).until(() -> queued(key) >= waiters);
	}

	private int queued(LeaseKey key) {
		// The key's waiting tickets, by arrival, are the sorted set '<redis key>:q'
		// (lease.lua).
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			Long queued = connection.scriptingCommands()
				.eval(QUEUED.getBytes(StandardCharsets.UTF_8), ReturnType.INTEGER, 1,
						(this.prefix + "{" + encoded(key) + "}").getBytes(StandardCharsets.US_ASCII));
			return (queued != null) ? queued.intValue() : 0;
		}
	}

	private byte[] rawState(LeaseKey key) {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			return connection.stringCommands()
				.get((this.prefix + "{" + encoded(key) + "}").getBytes(StandardCharsets.US_ASCII));
		}
	}

	private Set<String> redisKeys() {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			Set<byte[]> keys = connection.keyCommands().keys((this.prefix + "*").getBytes(StandardCharsets.US_ASCII));
			return (keys != null)
					? keys.stream().map((k) -> new String(k, StandardCharsets.US_ASCII)).collect(Collectors.toSet())
					: Set.of();
		}
	}

	private static String encoded(LeaseKey key) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes());
	}

	private static byte[] bytes(String text, int last) {
		byte[] head = text.getBytes(StandardCharsets.UTF_8);
		byte[] bytes = Arrays.copyOf(head, head.length + 1);
		bytes[head.length] = (byte) last;
		return bytes;
	}

	private static LeaseKey key() {
		return LeaseKey.of("key-" + UUID.randomUUID());
	}

	private static LeaseHolder holder() {
		return LeaseHolder.of("holder-" + UUID.randomUUID());
	}

}
