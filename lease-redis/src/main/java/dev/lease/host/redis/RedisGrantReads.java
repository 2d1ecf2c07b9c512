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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;

import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseKey;
import dev.lease.host.Micros;
import dev.lease.host.redis.RedisScriptAnswer.Standing;

/**
 * A page of a Redis host's standing grants: one SCAN step with MATCH on the prefix, then
 * the script's read-only {@code grant} question for every key of the page, sent together
 * (Lettuce's asynchronous commands, or a Jedis pipeline) and followed by one
 * {@code TIME}, the page's reading, each question with every key the script touches. A
 * grant is listed if it stands at that reading. On a cluster, where Spring's SCAN of a
 * node cannot start from a cursor, a page reads its node's whole SCAN and lists the first
 * keys after the cursor's in key order. Each grant listed carries its start where the
 * key's state kept one.
 *
 * @author Lease contributors
 */
final class RedisGrantReads {

	// SCAN's COUNT at the most, however large the page: the work of one step.
	private static final int MOST_SCANNED_A_STEP = 1000;

	private static final byte[] TIME = RedisLeaseStore.ascii("return redis.call('TIME')");

	private final RedisKeyCodec keys;

	private final RedisLeaseScript script;

	private final long timeoutMillis;

	RedisGrantReads(RedisKeyCodec keys, RedisLeaseScript script, long timeoutMillis) {
		this.keys = keys;
		this.script = script;
		this.timeoutMillis = timeoutMillis;
	}

	GrantsPage page(RedisConnection connection, @Nullable RedisGrantsCursor cursor, int limit) {
		Step step = (connection instanceof RedisClusterConnection cluster) ? clusterStep(cluster, cursor, limit)
				: serverStep(connection, (cursor != null) ? cursor : RedisGrantsCursor.FIRST_ON_SERVER, limit);
		Reads reads = read(connection, step.keys());
		List<Lease> grants = new ArrayList<>();
		Map<LeaseKey, Instant> starts = new HashMap<>();
		int i = 0;
		for (Map.Entry<LeaseKey, byte[]> key : step.keys().entrySet()) {
			List<Object> answer = reads.answers().get(i++);
			RedisScriptAnswer.requireLeaseState(key.getValue(), answer);
			Standing standing = RedisScriptAnswer.grant(answer);
			// A grant that passed between its read and the reading is not listed.
			if (standing != null && standing.expiresAt() > reads.time()) {
				grants.add(standing.lease(key.getKey()));
				Instant start = standing.start();
				if (start != null) {
					starts.put(key.getKey(), start);
				}
			}
		}
		return new GrantsPage(grants, Micros.toInstant(reads.time()), (step.next() != null) ? step.next().text() : null,
				starts);
	}

	// Keys left over from the step before first, then one SCAN step for the rest of the
	// page; what the step finds beyond the limit waits in the next cursor.
	private Step serverStep(RedisConnection connection, RedisGrantsCursor cursor, int limit) {
		Map<LeaseKey, byte[]> found = new LinkedHashMap<>();
		cursor.pending().forEach((redisKey) -> add(found, redisKey));
		String scan = cursor.scan();
		if (found.size() < limit && !cursor.scanDone()) {
			int count = Math.min(limit - found.size(), MOST_SCANNED_A_STEP);
			ScanStep step = scan(connection, scan, count);
			step.keys().forEach((redisKey) -> add(found, redisKey));
			scan = "0".equals(step.cursor()) ? "" : step.cursor();
		}
		Map<LeaseKey, byte[]> page = new LinkedHashMap<>();
		List<byte[]> pending = new ArrayList<>();
		found.forEach((key, redisKey) -> {
			if (page.size() < limit) {
				page.put(key, redisKey);
			}
			else {
				pending.add(redisKey);
			}
		});
		boolean done = scan.isEmpty() && pending.isEmpty();
		return new Step(page, done ? null : new RedisGrantsCursor(-1, scan, pending));
	}

	// A node's whole SCAN, keeping the page's keys after the cursor's last key in key
	// order: a new SCAN lists a node's keys in another order whenever its table was
	// rehashed, so only key order resumes soundly.
	private Step clusterStep(RedisClusterConnection cluster, @Nullable RedisGrantsCursor cursor, int limit) {
		RedisGrantsCursor at = (cursor != null) ? cursor : RedisGrantsCursor.FIRST_ON_CLUSTER;
		List<RedisClusterNode> primaries = StreamSupport.stream(cluster.clusterGetNodes().spliterator(), false)
			.filter(RedisClusterNode::isMaster)
			.sorted(Comparator.comparing(RedisClusterNode::getId))
			.toList();
		if (at.node() < 0 || at.node() >= primaries.size()) {
			return new Step(new LinkedHashMap<>(), null);
		}
		LeaseKey after = at.pending().isEmpty() ? null : this.keys.leaseKey(at.pending().get(0));
		TreeMap<LeaseKey, byte[]> page = new TreeMap<>();
		boolean more = false;
		ScanOptions options = ScanOptions.scanOptions().match(this.keys.pattern()).count(MOST_SCANNED_A_STEP).build();
		try (Cursor<byte[]> scan = cluster.scan(primaries.get(at.node()), options)) {
			while (scan.hasNext()) {
				byte[] redisKey = scan.next();
				LeaseKey key = this.keys.leaseKey(redisKey);
				if (key != null && (after == null || key.compareTo(after) > 0)) {
					page.put(key, redisKey);
					if (page.size() > limit) {
						page.pollLastEntry();
						more = true;
					}
				}
			}
		}
		if (more) {
			return new Step(page, new RedisGrantsCursor(at.node(), "0", List.of(page.lastEntry().getValue())));
		}
		boolean last = at.node() + 1 >= primaries.size();
		return new Step(page, last ? null : new RedisGrantsCursor(at.node() + 1, "0", List.of()));
	}

	private void add(Map<LeaseKey, byte[]> found, byte[] redisKey) {
		LeaseKey key = this.keys.leaseKey(redisKey);
		if (key != null) {
			found.putIfAbsent(key, redisKey);
		}
	}

	private ScanStep scan(RedisConnection connection, String cursor, int count) {
		if (RedisLeaseStore.lettucePresent && LettuceCommands.handles(connection)) {
			return LettuceCommands.scan(connection, cursor, this.keys.pattern(), count, this.timeoutMillis);
		}
		Object answer = connection.execute("SCAN", RedisLeaseStore.ascii(cursor), RedisLeaseStore.ascii("MATCH"),
				RedisLeaseStore.ascii(this.keys.pattern()), RedisLeaseStore.ascii("COUNT"),
				RedisLeaseStore.ascii(Integer.toString(count)));
		return ScanStep.of(answer);
	}

	// The grant question of every key and then TIME, sent before any answer is awaited;
	// after NOSCRIPT (a restarted or flushed server) the script is loaded and the whole
	// batch asked again.
	// The batch is asked again, read-only as it is, while a key's slot moves.
	private Reads read(RedisConnection connection, Map<LeaseKey, byte[]> page) {
		List<byte[]> redisKeys = new ArrayList<>(page.values());
		return RedisMigrations.retry(this.script.shortRetryNanos(), () -> {
			try {
				return readOnce(connection, redisKeys);
			}
			catch (RuntimeException ex) {
				if (!RedisLeaseScript.isNoScript(ex)) {
					throw ex;
				}
				this.script.load(connection);
				return readOnce(connection, redisKeys);
			}
		});
	}

	private Reads readOnce(RedisConnection connection, List<byte[]> redisKeys) {
		if (RedisLeaseStore.lettucePresent && LettuceCommands.handles(connection)) {
			return LettuceCommands.evalShaEachThenTime(connection, this.script.sha(), redisKeys,
					RedisScriptArguments.GRANT, this.timeoutMillis);
		}
		if (connection instanceof RedisClusterConnection) {
			// Jedis pipelines no cluster commands: a question a key.
			List<List<Object>> answers = redisKeys.stream()
				.map((redisKey) -> this.script.run(connection, redisKey, 0, RedisScriptArguments.GRANT))
				.toList();
			Long time = connection.serverCommands().time(TimeUnit.MICROSECONDS);
			return new Reads(answers, (time != null) ? time : 0);
		}
		connection.openPipeline();
		for (byte[] redisKey : redisKeys) {
			byte[][] keys = RedisLeaseScript.keys(redisKey);
			connection.scriptingCommands()
				.evalSha(this.script.sha(), ReturnType.MULTI, keys.length,
						RedisLeaseScript.keysAndArgs(keys, RedisScriptArguments.GRANT));
		}
		// Spring's Jedis pipeline refuses TIME itself, not a script that reads it.
		connection.scriptingCommands().eval(TIME, ReturnType.MULTI, 0);
		List<Object> results = connection.closePipeline();
		List<List<Object>> answers = results.subList(0, redisKeys.size())
			.stream()
			.map(RedisGrantReads::answer)
			.toList();
		return new Reads(answers, Reads.micros(answer(results.get(redisKeys.size()))));
	}

	private static long number(Object part) {
		return (part instanceof byte[] bytes) ? Long.parseLong(new String(bytes, StandardCharsets.US_ASCII))
				: ((Number) part).longValue();
	}

	@SuppressWarnings("unchecked")
	private static List<Object> answer(@Nullable Object result) {
		if (!(result instanceof List<?> answer) || answer.isEmpty()) {
			throw new IllegalStateException("lease.lua answered " + result);
		}
		return (List<Object>) answer;
	}

	/**
	 * The keys of a page and the cursor of the next page.
	 *
	 * @param keys the page's keys with their Redis keys, in the order found
	 * @param next the cursor of the next page, or {@code null} after the last
	 */
	private record Step(Map<LeaseKey, byte[]> keys, @Nullable RedisGrantsCursor next) {

	}

	/**
	 * The answers of a page's grant questions and the page's reading.
	 *
	 * @param answers the script's answers, in the order asked
	 * @param time the reading of TIME after them, in microseconds since the epoch
	 */
	record Reads(List<List<Object>> answers, long time) {

		// TIME's answer (seconds, then microseconds) in microseconds.
		static long micros(List<?> time) {
			return number(time.get(0)) * 1_000_000 + number(time.get(1));
		}

	}

	/**
	 * One SCAN step.
	 *
	 * @param keys the keys it found
	 * @param cursor the cursor it answered, {@code 0} when SCAN came round
	 */
	record ScanStep(List<byte[]> keys, String cursor) {

		static ScanStep of(@Nullable Object answer) {
			if (!(answer instanceof List<?> parts) || parts.size() != 2 || !(parts.get(1) instanceof List<?> found)) {
				throw new IllegalStateException("SCAN answered " + answer);
			}
			List<byte[]> keys = found.stream().map((key) -> (byte[]) key).toList();
			Object cursor = parts.get(0);
			return new ScanStep(keys, (cursor instanceof byte[] bytes) ? new String(bytes, StandardCharsets.US_ASCII)
					: String.valueOf(cursor));
		}

	}

}
