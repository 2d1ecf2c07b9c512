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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.types.Expiration;
import redis.embedded.RedisServer;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.host.redis.RedisLeaseHost;

/**
 * The Redis host beside its floor on the same server and client: {@code SET key holder NX
 * PX} plus a compare-and-delete script. The server is the one named by
 * {@code LEASE_BENCH_REDIS_URL}, else an embedded Redis on a free port.
 *
 * @author Lease contributors
 */
final class RedisBenchmarks {

	private static final Duration TERM = Duration.ofSeconds(30);

	static final byte[] COMPARE_AND_DELETE = """
			if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
			return 0""".getBytes(StandardCharsets.UTF_8);

	private static final int ROUNDS = 7;

	private static final int HANDOFFS = 1000;

	private static final int WARM_UP = 200;

	private static final int GRANTS = 100_000;

	private RedisBenchmarks() {
	}

	static void run(BenchmarkTable table) {
		RedisServer embedded = null;
		String host = "127.0.0.1";
		int port;
		String url = System.getenv("LEASE_BENCH_REDIS_URL");
		try {
			if (url != null && !url.isBlank()) {
				URI uri = URI.create(url.trim());
				host = uri.getHost();
				port = (uri.getPort() > 0) ? uri.getPort() : 6379;
			}
			else {
				port = freePort();
				embedded = RedisServer.newRedisServer().bind(host).port(port).build();
				embedded.start();
			}
			LettuceConnectionFactory factory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration(host, port));
			factory.afterPropertiesSet();
			factory.start();
			String prefix = "bench-" + UUID.randomUUID().toString().substring(0, 8) + ":";
			try (RedisLeaseHost leaseHost = RedisLeaseHost.builder(factory).keyPrefix(prefix).build()) {
				pairs(table, factory, leaseHost, prefix);
				handoff(table, leaseHost, factory, prefix);
				memory(table, leaseHost, factory);
			}
			finally {
				factory.destroy();
			}
			RedisCost.run(table.cost(), host, port, prefix, embedded != null);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException | ExecutionException | TimeoutException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			if (embedded != null) {
				try {
					embedded.stop();
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			}
		}
	}

	private static void pairs(BenchmarkTable table, LettuceConnectionFactory factory, RedisLeaseHost host,
			String prefix) throws InterruptedException {
		LeaseHolder holder = LeaseHolder.of("benchmark");
		byte[] holderBytes = holder.bytes();
		String floorSha;
		try (RedisConnection connection = factory.getConnection()) {
			floorSha = connection.scriptingCommands().scriptLoad(COMPARE_AND_DELETE);
		}
		for (int threads : new int[] { 1, 8 }) {
			LeaseKey[][] keys = new LeaseKey[threads][1024];
			byte[][][] floorKeys = new byte[threads][1024][];
			for (int t = 0; t < threads; t++) {
				for (int i = 0; i < 1024; i++) {
					keys[t][i] = LeaseKey.of("bench:" + t + ":" + i);
					floorKeys[t][i] = (prefix + "floor:" + t + ":" + i).getBytes(StandardCharsets.UTF_8);
				}
			}
			List<PeerBenchmarks.Peer> besides = new ArrayList<>();
			besides.add(new PeerBenchmarks.Peer("redis try_take+release", (thread, index) -> {
				LeaseKey key = keys[thread][(int) (index & 1023)];
				host.tryTake(key, holder, TERM);
				host.release(key, holder);
			}));
			// Other libraries in the same rounds, on the same connection factory.
			besides.addAll(PeerBenchmarks.redis(factory, prefix, threads));
			List<PairThroughput.Beside> measured = PairThroughput.besideAll(threads, ROUNDS,
					floor(factory, floorSha, floorKeys, holderBytes),
					besides.stream().map(PeerBenchmarks.Peer::pair).toList());
			for (int i = 0; i < besides.size(); i++) {
				String name = (i == 0) ? besides.get(i).name() : besides.get(i).name() + " (Redis)";
				table.add(name + ", " + threads + " thread(s)", "pairs/s", measured.get(i).figure(),
						measured.get(i).floor(), besides.get(i).refusalsPerPair());
			}
		}
	}

	static PairThroughput.Pair floor(LettuceConnectionFactory factory, String sha, byte[][][] keys, byte[] holder) {
		return (thread, index) -> {
			byte[] key = keys[thread][(int) (index & 1023)];
			try (RedisConnection connection = factory.getConnection()) {
				connection.stringCommands()
					.set(key, holder, Expiration.milliseconds(TERM.toMillis()), SetOption.ifAbsent());
			}
			try (RedisConnection connection = factory.getConnection()) {
				connection.scriptingCommands().evalSha(sha, ReturnType.INTEGER, 1, key, holder);
			}
		};
	}

	private static void handoff(BenchmarkTable table, RedisLeaseHost host, LettuceConnectionFactory factory,
			String prefix) throws InterruptedException, ExecutionException, TimeoutException {
		// the waiter waits once its entry has grown the key's state
		long[] latencies = HandoffLatency.measure(host, WARM_UP, HANDOFFS, (key, waiter) -> {
			int grantOnly = stateLength(factory, prefix, key);
			return () -> stateLength(factory, prefix, key) > grantOnly;
		});
		table.add("redis handoff latency p50 (release -> waiter's take returns)", "ms", latencies[HANDOFFS / 2] / 1e6,
				Double.NaN);
		table.add("redis handoff latency p99", "ms", latencies[HANDOFFS * 99 / 100] / 1e6, Double.NaN);
	}

	private static int stateLength(LettuceConnectionFactory factory, String prefix, LeaseKey key) {
		try (RedisConnection connection = factory.getConnection()) {
			byte[] state = connection.stringCommands()
				.get((prefix + "{" + Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes()) + "}")
					.getBytes(StandardCharsets.US_ASCII));
			return (state != null) ? state.length : 0;
		}
	}

	private static void memory(BenchmarkTable table, RedisLeaseHost host, LettuceConnectionFactory factory)
			throws InterruptedException, ExecutionException {
		LeaseHolder holder = LeaseHolder.of("benchmark-holder");
		LeaseKey[] keys = new LeaseKey[GRANTS];
		for (int i = 0; i < GRANTS; i++) {
			keys[i] = LeaseKey.of("memory:" + i);
		}
		long before = usedMemory(factory);
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			runAll(executor, (i) -> host.tryTake(keys[i], holder, Duration.ofMinutes(10)));
			long after = usedMemory(factory);
			table.add("redis memory per standing grant (" + GRANTS + " grants, INFO memory)", "bytes",
					(after - before) / (double) GRANTS, Double.NaN);
			runAll(executor, (i) -> host.release(keys[i], holder));
		}
		finally {
			executor.shutdownNow();
		}
	}

	private static void runAll(ExecutorService executor, IntConsumer action)
			throws InterruptedException, ExecutionException {
		CompletableFuture<?>[] parts = new CompletableFuture<?>[8];
		for (int p = 0; p < 8; p++) {
			int part = p;
			parts[p] = CompletableFuture.runAsync(() -> {
				for (int i = part; i < GRANTS; i += 8) {
					action.accept(i);
				}
			}, executor);
		}
		CompletableFuture.allOf(parts).get();
	}

	private static long usedMemory(LettuceConnectionFactory factory) {
		try (RedisConnection connection = factory.getConnection()) {
			Properties info = connection.serverCommands().info("memory");
			if (info == null) {
				throw new IllegalStateException("INFO memory answered nothing");
			}
			return Long.parseLong(info.getProperty("used_memory").trim());
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
