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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.host.Withdrawals;
import dev.lease.tck.Stalls;
import dev.lease.test.support.RedisTestServer;
import dev.lease.test.support.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a waiting take returns by its bound plus {@link Withdrawals#ANSWER_MARGIN}
 * when Redis stops answering (Host: silence): with the host's answer, or
 * {@link LeaseHostException} when none can be known, blocking and non-blocking, whether
 * the server is killed or every byte to it is dropped. The client is Lettuce as Spring
 * Boot configures it, whose command timeout (60 s) is far past the bound, and which keeps
 * commands while it reconnects.
 *
 * @author Lease contributors
 */
class RedisSilentServerIntegrationTests {

	// The holder's term: the waiters' bound, the arrival term, is its end (Operation 3).
	private static final Duration HOLD = Duration.ofSeconds(5);

	private static final Duration TERM = Duration.ofSeconds(60);

	private static final int BLOCKING = 4;

	private static final int ASYNC = 20;

	private final String prefix = "lease-silent-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private RedisTestServer server;

	private TcpProxy proxy;

	private LettuceConnectionFactory proxied;

	private RedisLeaseHost direct;

	private RedisLeaseHost host;

	private Stalls stalls;

	@BeforeEach
	void start() throws Exception {
		this.server = RedisTestServer.startEmbedded(RedisTestServer.freePort(), List.of());
		this.proxy = TcpProxy.to(this.server.port());
		this.proxied = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", this.proxy.port()));
		this.proxied.afterPropertiesSet();
		this.proxied.start();
		this.direct = RedisLeaseHost.builder(this.server.lettuce()).keyPrefix(this.prefix).build();
		this.host = RedisLeaseHost.builder(this.proxied).keyPrefix(this.prefix).build();
		this.stalls = new Stalls();
	}

	@AfterEach
	void stop() throws Exception {
		this.stalls.close();
		this.threads.shutdownNow();
		this.proxy.close();
		this.host.close();
		this.direct.close();
		this.proxied.destroy();
		this.server.close();
	}

	@Test
	@DisplayName("Host: silence. With every byte to Redis dropped, each waiting take returns by its bound plus the margin")
	void waitersReturnByTheirBoundWhenRedisIsSilent() throws Exception {
		assertWaitersReturnByTheirBound(this.proxy::blackhole);
	}

	@Test
	@DisplayName("Host: silence. With Redis killed under them, each waiting take returns by its bound plus the margin")
	void waitersReturnByTheirBoundWhenRedisIsKilled() throws Exception {
		assertWaitersReturnByTheirBound(this.server::stopServer);
	}

	private void assertWaitersReturnByTheirBound(Runnable fault) throws Exception {
		LeaseKey key = LeaseKey.of("silent");
		assertThat(this.direct.tryTake(key, LeaseHolder.of("holder"), HOLD)).isInstanceOf(Taken.class);
		// Every bound is at most this: the holder's grant ends no later.
		long boundsBy = System.nanoTime() + HOLD.toNanos();
		List<CompletableFuture<Object>> answers = new ArrayList<>();
		for (int i = 0; i < BLOCKING; i++) {
			LeaseHolder holder = LeaseHolder.of("blocking-" + i);
			answers.add(CompletableFuture.supplyAsync(() -> outcome(() -> this.host.take(key, holder, TERM)),
					this.threads));
		}
		for (int i = 0; i < ASYNC; i++) {
			answers.add(this.host.async()
				.take(key, LeaseHolder.of("async-" + i), TERM)
				.handle((result, failure) -> (failure != null) ? failure : result));
		}
		await().atMost(HOLD).until(() -> queued(key) == BLOCKING + ASYNC);
		fault.run();
		for (CompletableFuture<Object> answer : answers) {
			Object outcome = answer.get(120, TimeUnit.SECONDS);
			assertThat(outcome).as("a waiter's answer").isInstanceOfAny(TakeResult.class, LeaseHostException.class);
		}
		Duration late = Duration.ofNanos(System.nanoTime() - boundsBy);
		assertThat(late).as("the last answer past the latest bound")
			.isLessThanOrEqualTo(Withdrawals.ANSWER_MARGIN.plus(this.stalls.lost()));
	}

	private Object outcome(Take take) {
		try {
			return take.run();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return ex;
		}
		catch (RuntimeException ex) {
			return ex;
		}
	}

	private long queued(LeaseKey key) {
		RedisConnectionFactory connections = this.server.lettuce();
		try (RedisConnection connection = connections.getConnection()) {
			byte[] queue = (new String(new RedisKeyCodec(this.prefix).redisKey(key), StandardCharsets.US_ASCII) + ":q")
				.getBytes(StandardCharsets.US_ASCII);
			Long count = connection.zSetCommands().zCard(queue);
			return (count != null) ? count : 0;
		}
	}

	private interface Take {

		TakeResult run() throws InterruptedException;

	}

}
