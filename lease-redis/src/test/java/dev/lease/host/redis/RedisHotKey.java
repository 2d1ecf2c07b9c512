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
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;

/**
 * A hot key on a Redis server of the caller's own: N waiters blocked in {@code take} on
 * one key, then released one after another, each waiter releasing as soon as it is handed
 * the key (and, when asked to, queueing again behind the others so that the queue stays N
 * long). Counts what Redis did meanwhile from {@code INFO commandstats}: the script
 * calls, and the commands the script ran, which are the entries it touched.
 *
 * @author Lease contributors
 */
final class RedisHotKey {

	// Longer than any run: bounds never pass, so every waiter is served by a handoff.
	private static final Duration TERM = Duration.ofMinutes(30);

	// The commands lease.lua runs; INFO and the host's durability checks are not counted.
	private static final Set<String> SCRIPT_COMMANDS = Set.of("get", "set", "del", "time", "publish", "type", "zcard",
			"hlen", "zrange", "zrangebyscore", "zadd", "zrem", "hget", "hset", "hdel", "pexpire");

	private RedisHotKey() {
	}

	/**
	 * Queue {@code waiters} on one key, then hand it on {@code handoffs} times.
	 * @param factory a factory on a server only this run uses
	 * @param waiters N
	 * @param handoffs how many handoffs to count
	 * @param requeue whether a waiter handed the key queues again after its release
	 * @return what was counted
	 * @throws Exception if the run fails
	 */
	static Result run(RedisConnectionFactory factory, int waiters, int handoffs, boolean requeue) throws Exception {
		return run(factory, waiters, handoffs, requeue, (f) -> {
		}, (f) -> "");
	}

	/**
	 * Queue {@code waiters} on one key, then hand it on {@code handoffs} times.
	 * @param factory a factory on a server only this run uses
	 * @param waiters N
	 * @param handoffs how many handoffs to count
	 * @param requeue whether a waiter handed the key queues again after its release
	 * @param beforeHandoffs called once every waiter is queued, before the first handoff
	 * @param afterHandoffs called after the last handoff counted, before the waiters
	 * leave; what it answers is noted in the result
	 * @return what was counted
	 * @throws Exception if the run fails
	 */
	static Result run(RedisConnectionFactory factory, int waiters, int handoffs, boolean requeue,
			Consumer<RedisConnectionFactory> beforeHandoffs, Function<RedisConnectionFactory, String> afterHandoffs)
			throws Exception {
		String prefix = "hot-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		LeaseKey key = LeaseKey.of("hot-key");
		byte[] redisKey = (prefix + "{" + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(key.bytes())
				+ "}")
			.getBytes(StandardCharsets.US_ASCII);
		ExecutorService executor = Executors.newFixedThreadPool(waiters);
		try (RedisLeaseHost host = RedisLeaseHost.builder(factory).keyPrefix(prefix).build()) {
			LeaseHolder first = LeaseHolder.of("first");
			host.tryTake(key, first, TERM);
			long before = calls(factory, "evalsha");
			AtomicInteger handed = new AtomicInteger();
			long[] takenAt = new long[handoffs + 1];
			for (int i = 0; i < waiters; i++) {
				LeaseHolder waiter = LeaseHolder.of(String.format("waiter-%05d", i));
				executor.execute(() -> serve(host, key, waiter, handed, takenAt, handoffs, requeue));
			}
			// Every waiter queued: one script call each.
			long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
			while (calls(factory, "evalsha") - before < waiters && System.nanoTime() < deadline) {
				Thread.sleep(20);
			}
			beforeHandoffs.accept(factory);
			Properties start = stats(factory);
			long released = System.nanoTime();
			host.release(key, first);
			while (handed.get() <= handoffs && System.nanoTime() < deadline) {
				Thread.sleep(1);
			}
			Properties end = stats(factory);
			String note = afterHandoffs.apply(factory);
			long scriptCalls = calls(end, "evalsha") - calls(start, "evalsha");
			long commands = 0;
			for (String command : SCRIPT_COMMANDS) {
				commands += calls(end, command) - calls(start, command);
			}
			long length = length(factory, redisKey);
			int done = Math.min(handed.get(), handoffs + 1) - 1;
			long[] intervals = new long[Math.max(0, done)];
			for (int i = 0; i < intervals.length; i++) {
				intervals[i] = takenAt[i + 1] - takenAt[i];
			}
			Arrays.sort(intervals);
			return new Result(waiters, done, scriptCalls, commands, length, intervals, takenAt[0] - released, note);
		}
		finally {
			executor.shutdownNow();
			executor.awaitTermination(1, TimeUnit.MINUTES);
		}
	}

	// One waiter: take; once handed the key, note when, and release it unless it is the
	// last one counted (which keeps it, so that nothing runs after the count).
	private static void serve(RedisLeaseHost host, LeaseKey key, LeaseHolder waiter, AtomicInteger handed,
			long[] takenAt, int handoffs, boolean requeue) {
		try {
			while (true) {
				TakeResult result = host.take(key, waiter, TERM);
				if (!(result instanceof Taken)) {
					return;
				}
				int index = handed.getAndIncrement();
				if (index <= handoffs) {
					takenAt[index] = System.nanoTime();
				}
				if (index >= handoffs) {
					return;
				}
				host.release(key, waiter);
				if (!requeue) {
					return;
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (RuntimeException ex) {
			// the run ends under it
		}
	}

	// The length of the value every script call reads and writes whole.
	private static long length(RedisConnectionFactory factory, byte[] redisKey) {
		try (RedisConnection connection = factory.getConnection()) {
			Long length = connection.scriptingCommands()
				.eval("return redis.call('STRLEN', KEYS[1])".getBytes(StandardCharsets.US_ASCII), ReturnType.INTEGER, 1,
						redisKey);
			return (length != null) ? length : 0;
		}
	}

	private static Properties stats(RedisConnectionFactory factory) {
		try (RedisConnection connection = factory.getConnection()) {
			return connection.serverCommands().info("commandstats");
		}
	}

	private static long calls(RedisConnectionFactory factory, String command) {
		return calls(stats(factory), command);
	}

	private static long calls(Properties stats, String command) {
		String line = stats.getProperty("cmdstat_" + command);
		if (line == null) {
			return 0;
		}
		for (String field : line.split(",")) {
			if (field.startsWith("calls=")) {
				return Long.parseLong(field.substring("calls=".length()));
			}
		}
		return 0;
	}

	static List<Integer> sizes(String spec) {
		List<Integer> sizes = new ArrayList<>();
		for (String size : spec.split(",")) {
			sizes.add(Integer.parseInt(size.trim()));
		}
		return sizes;
	}

	/**
	 * What a run counted.
	 *
	 * @param waiters N
	 * @param handoffs the handoffs counted
	 * @param scriptCalls script calls while they happened
	 * @param commands the commands those calls ran
	 * @param valueLength the length of the key's value, read whole by every call
	 * @param intervals the times between successive handoffs, in nanoseconds, sorted
	 * @param firstHandoff the time from the first release to its waiter's Taken
	 * @param note what the caller noted after the handoffs
	 */
	record Result(int waiters, int handoffs, long scriptCalls, long commands, long valueLength, long[] intervals,
			long firstHandoff, String note) {

		double callsPerHandoff() {
			return (double) this.scriptCalls / Math.max(1, this.handoffs);
		}

		double commandsPerCall() {
			return (double) this.commands / Math.max(1, this.scriptCalls);
		}

		long percentile(double fraction) {
			if (this.intervals.length == 0) {
				return -1;
			}
			return this.intervals[Math.min(this.intervals.length - 1, (int) (fraction * this.intervals.length))];
		}

		@Override
		public String toString() {
			return "N=" + this.waiters + ": " + this.handoffs + " handoffs, " + this.scriptCalls + " script calls ("
					+ String.format("%.2f", callsPerHandoff()) + " per handoff), "
					+ String.format("%.1f", commandsPerCall()) + " commands per call, value of " + this.valueLength
					+ " bytes, handoff p50 " + percentile(0.5) / 1000 + " us, p99 " + percentile(0.99) / 1000 + " us"
					+ this.note;
		}

	}

}
