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

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisAskDataException;
import redis.clients.jedis.exceptions.JedisDataException;

import dev.lease.test.support.RedisTestCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@code lease.lua} on a Redis Cluster slot that is open, MIGRATING on its
 * source and IMPORTING on its target: every path of the script, with the key's four Redis
 * keys ({@code <prefix>{tag}}, {@code :q}, {@code :w}, {@code :h}) split between the two
 * masters every way MIGRATE allows (each of the sixteen subsets moved to the target). The
 * calls are sent as a cluster client sends them: to the source, and after {@code ASK} to
 * the target with {@code ASKING}. Redis runs the script on a node only while all four
 * keys are there (otherwise it answers {@code TRYAGAIN}, or {@code ASK} and then
 * {@code TRYAGAIN}), and refuses a command inside it that touches one of them that is not
 * there (one the script emptied, on the source; a command naming several, one absent, on
 * the target) with the writes made before it standing. So the test reads the four keys on
 * both masters before and after each call that did not answer, and requires them
 * unchanged; then it completes the migration, asks again a call that was refused (as
 * {@link RedisMigrations} does), has every waiter ask and a newcomer try, and requires at
 * most one party to hold a live grant among all the answers.
 * <p>
 * The state each path starts from has all four keys: X took the key with A and B queued
 * behind it, and X released it, handing it to A (its grant kept in {@code :h} until A
 * asks), so that B waits in {@code :q}. Run on each redis-server this machine has (the
 * embedded artifact's 6.2, and the system's where there is one).
 *
 * @author Lease contributors
 */
class RedisClusterOpenSlotScriptIntegrationTests {

	private static final String PREFIX = "open-slot:";

	private static final String[] SUFFIXES = { "", ":q", ":w", ":h" };

	private static final long LONG_MICROS = 60_000_000L;

	private static final long SHORT_MICROS = 300_000L;

	static List<File> binaries() {
		return RedisTestCluster.binaries();
	}

	// Each server version on a cluster of its own, side by side: the scenarios wait on
	// the
	// cluster's configuration far more than they compute.
	@ParameterizedTest(name = "{0}")
	@MethodSource("binaries")
	@Execution(ExecutionMode.CONCURRENT)
	@DisplayName("Invariant 1, Non-goal 3: on a slot open between two masters, with the four keys split every way, every path of lease.lua either answers or leaves both masters as they were, and no two parties hold the key")
	void everyPathFailsBeforeItWrites(File binary) throws Exception {
		byte[] script = RedisLeaseScript
			.substitute(new String(RedisLeaseScript.class.getResourceAsStream("lease.lua").readAllBytes(),
					StandardCharsets.UTF_8))
			.getBytes(StandardCharsets.UTF_8);
		try (RedisTestCluster cluster = new RedisTestCluster(binary)) {
			List<String> failures = new ArrayList<>();
			Map<String, Integer> outcomes = new TreeMap<>();
			Set<Integer> usedSlots = new HashSet<>();
			for (Path path : Path.values()) {
				for (int moved = 0; moved < 16; moved++) {
					new Scenario(cluster, script, path, moved, usedSlots).run(failures, outcomes);
				}
			}
			System.out.println("lease.lua on an open slot of Redis " + cluster.version() + ": " + outcomes);
			assertThat(failures)
				.as("paths of lease.lua on an open slot of Redis " + cluster.version()
						+ " that left a half-written state or a second holder")
				.isEmpty();
		}
	}

	static String micros(long micros) {
		return Long.toString(micros);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String text(Object raw) {
		return text((byte[]) raw);
	}

	private static String text(byte[] raw) {
		return new String(raw, StandardCharsets.UTF_8);
	}

	private static String text(byte[] raw, int from, int to) {
		return new String(raw, from, to - from, StandardCharsets.UTF_8);
	}

	/**
	 * A path of the script, from the state described above.
	 */
	enum Path {

		TRY_TAKE("try take (refused, the key held)", false, "try", "C", micros(LONG_MICROS)),

		TAKE("take (queued behind B)", false, "take", "C", micros(LONG_MICROS), "3"),

		RELEASE("release and its hand-on (A releases, B is handed the key)", false, "release", "A"),

		ASK_HANDED("ask of the waiter handed the key (A)", false, "ask", "1", "0"),

		SETTLE("settle (A takes its handed grant up)", false, "settle", "1", "0"),

		GIVE_BACK("give-back (A interrupted as it was granted: settle, interrupted, hands on to B)", false, "settle",
				"1", "1"),

		ASK_WAITING("ask of a waiter still queued (B)", false, "ask", "2", "0"),

		WITHDRAWAL("withdrawal (B gives up: settle, interrupted, B at the head)", false, "settle", "2", "1"),

		EXPIRY("expiry (A's term passed: a try take by C derives the handoff to B)", true, "try", "C",
				micros(LONG_MICROS)),

		REMAINING("remaining (writes nothing)", false, "remaining", "A");

		final String description;

		final boolean shortTerm;

		final String[] argv;

		Path(String description, boolean shortTerm, String... argv) {
			this.description = description;
			this.shortTerm = shortTerm;
			this.argv = argv;
		}

	}

	/**
	 * One path with one split of the four keys, on a key of its own (its own slot).
	 */
	private static final class Scenario {

		private final RedisTestCluster cluster;

		private final byte[] script;

		private final Path path;

		private final int moved;

		private final String key;

		private final int slot;

		private final int from;

		private final int to;

		// Every live grant a party was told it holds: holder -> instant, in microseconds.
		private final Map<String, Long> told = new LinkedHashMap<>();

		private final Map<String, String> holderOf = Map.of("1", "A", "2", "B", "3", "C");

		// usedSlots: the slots earlier scenarios moved, never moved twice (the masters'
		// views of a slot moved twice in a row may take a while to agree).
		Scenario(RedisTestCluster cluster, byte[] script, Path path, int moved, Set<Integer> usedSlots) {
			this.cluster = cluster;
			this.script = script;
			this.path = path;
			this.moved = moved;
			String candidate;
			do {
				candidate = PREFIX + "{" + UUID.randomUUID() + "}";
			}
			while (!usedSlots.add(cluster.slotOf(candidate)));
			this.key = candidate;
			this.slot = cluster.slotOf(this.key);
			this.from = cluster.ownerOf(this.slot);
			this.to = cluster.ports().stream().filter((port) -> port != this.from).findFirst().orElseThrow();
		}

		void run(List<String> failures, Map<String, Integer> outcomes) throws InterruptedException {
			String name = this.path.description + ", on the target " + split();
			long aTerm = this.path.shortTerm ? SHORT_MICROS : LONG_MICROS;
			// X holds; A and B queue behind it; X releases, handing the key to A.
			expect(name, call(this.from, this.from, "try", "X", micros(LONG_MICROS)), 1L);
			expect(name, call(this.from, this.from, "take", "A", micros(aTerm), "1"), 0L);
			expect(name, call(this.from, this.from, "take", "B", micros(LONG_MICROS), "2"), 0L);
			Outcome handed = call(this.from, this.from, "release", "X");
			expect(name, handed, 1L);
			this.told.put("A", (Long) handed.answer.get(2));
			if (this.cluster.keysInSlot(this.from, this.slot) != 4) {
				failures.add(name + ": the state to start from does not have four keys: " + read());
				return;
			}

			// The masters agree on each other's config epochs first, so that the target's
			// new epoch once it takes the slot is above every other (else a claim the
			// source sent before it let the slot go can win on the target).
			await().pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(10))
				.atMost(Duration.ofSeconds(10))
				.until(this::epochsAgree);
			this.cluster.startMigration(this.slot, this.from, this.to);
			List<String> moving = new ArrayList<>();
			for (int i = 0; i < SUFFIXES.length; i++) {
				if ((this.moved & (1 << i)) != 0) {
					moving.add(this.key + SUFFIXES[i]);
				}
			}
			if (!moving.isEmpty()) {
				this.cluster.migrate(this.from, this.to, moving.toArray(String[]::new));
			}
			if (this.path.shortTerm) {
				while (time(this.from) <= this.told.get("A") + 50_000) {
					Thread.sleep(20);
				}
			}

			String before = read();
			Outcome outcome = call(this.from, this.to, this.path.argv);
			outcomes.merge(this.path.name() + " " + outcome.where(), 1, Integer::sum);
			if ((this.moved == 0 || this.moved == 15) && !outcome.ranScript()) {
				// the premise of the test: Redis runs the script where the four keys are
				failures.add(name + ": the script did not run with the four keys together: " + outcome.describe());
			}
			if (outcome.answer == null) {
				String after = read();
				if (!after.equals(before)) {
					failures.add(name + ": " + outcome.error + "\n    before: " + before + "\n    after:  " + after);
				}
			}
			else {
				tell(this.path.argv, outcome.answer);
			}

			// The migration completes: the keys left on the source move, and every master
			// is told the slot's new owner.
			List<String> left = new ArrayList<>();
			for (String suffix : SUFFIXES) {
				if (exists(this.from, this.key + suffix)) {
					left.add(this.key + suffix);
				}
			}
			if (!left.isEmpty()) {
				this.cluster.migrate(this.from, this.to, left.toArray(String[]::new));
			}
			this.cluster.finishMigration(this.slot, this.from, this.to);
			await().pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(10))
				.atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(servedBy()).as(name).isEqualTo(servedByTarget()));

			if (outcome.answer == null && outcome.isMigrating()) {
				// asked again once the slot is stable, as the host does
				Outcome again = call(this.to, this.to, this.path.argv);
				if (again.answer == null) {
					failures.add(name + ": asked again after the migration: " + again.error);
					return;
				}
				tell(this.path.argv, again.answer);
			}
			// Every waiter asks (B, the waiter a hand-on goes to, first; then C, then
			// A), and a newcomer tries.
			for (String ticket : List.of("2", "3", "1")) {
				Outcome asked = call(this.to, this.to, "ask", ticket, "0");
				if (asked.answer != null) {
					tell(new String[] { "ask", ticket, "0" }, asked.answer);
				}
			}
			Outcome late = call(this.to, this.to, "try", "D", micros(LONG_MICROS));
			if (late.answer != null) {
				tell(new String[] { "try", "D" }, late.answer);
			}
			long now = time(this.to);
			Map<String, Long> live = this.told.entrySet()
				.stream()
				.filter((grant) -> grant.getValue() > now)
				.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
			if (live.size() > 1) {
				failures.add(name + ": " + live.size() + " parties hold the key: " + live.keySet() + " (the call "
						+ ((outcome.answer != null) ? outcome.where() : "failed: " + outcome.error) + ")");
			}
		}

		// Record what a party was told by an answer.
		private void tell(String[] argv, List<Object> answer) {
			long code = (Long) answer.get(0);
			switch (argv[0]) {
				case "try", "take" -> {
					if (code == 1) {
						this.told.put(argv[1], (Long) answer.get(1));
					}
				}
				case "release" -> {
					if (code == 1) {
						this.told.remove(argv[1]);
						if (answer.size() == 3) {
							this.told.put(this.holderOf.get(text(answer.get(1))), (Long) answer.get(2));
						}
					}
				}
				case "ask" -> {
					if (code == 1) {
						this.told.put(this.holderOf.get(argv[1]), (Long) answer.get(1));
					}
				}
				case "settle" -> {
					if (code == 1 && "1".equals(argv[2])) {
						// interrupted as it was granted: given back
						this.told.remove(this.holderOf.get(argv[1]));
					}
					else if (code == 1) {
						this.told.put(this.holderOf.get(argv[1]), (Long) answer.get(1));
					}
				}
				default -> {
				}
			}
		}

		private String split() {
			List<String> target = new ArrayList<>();
			List<String> source = new ArrayList<>();
			for (int i = 0; i < SUFFIXES.length; i++) {
				String name = SUFFIXES[i].isEmpty() ? "key" : SUFFIXES[i];
				(((this.moved & (1 << i)) != 0) ? target : source).add(name);
			}
			return target + ", on the source " + source;
		}

		private void expect(String name, Outcome outcome, long code) {
			if (outcome.answer == null || (Long) outcome.answer.get(0) != code) {
				throw new IllegalStateException(
						name + ": setting up, expected code " + code + " but got " + outcome.describe());
			}
		}

		// The script called as a cluster client calls it: on the first node, and after
		// ASK on the other with ASKING.
		@SuppressWarnings("unchecked")
		private Outcome call(int first, int other, String... argv) {
			byte[][] keysAndArgs = new byte[SUFFIXES.length + argv.length][];
			for (int i = 0; i < SUFFIXES.length; i++) {
				keysAndArgs[i] = bytes(this.key + SUFFIXES[i]);
			}
			for (int i = 0; i < argv.length; i++) {
				keysAndArgs[SUFFIXES.length + i] = bytes(argv[i]);
			}
			try (Jedis jedis = new Jedis("127.0.0.1", first)) {
				return new Outcome("on the source",
						(List<Object>) jedis.eval(this.script, SUFFIXES.length, keysAndArgs), null);
			}
			catch (JedisAskDataException ask) {
				try (Jedis jedis = new Jedis("127.0.0.1", other)) {
					jedis.sendCommand(Protocol.Command.ASKING);
					return new Outcome("on the target",
							(List<Object>) jedis.eval(this.script, SUFFIXES.length, keysAndArgs), null);
				}
				catch (JedisDataException ex) {
					return new Outcome("on the target", null, ex.getMessage());
				}
			}
			catch (JedisDataException ex) {
				return new Outcome("on the source", null, ex.getMessage());
			}
		}

		// The four keys on both masters, as each stores them (read with ASKING on the
		// target; a key absent from a node is left out).
		private String read() {
			return "source " + read(this.from, false) + ", target " + read(this.to, true);
		}

		private String read(int port, boolean asking) {
			Map<String, String> keys = new LinkedHashMap<>();
			try (Jedis jedis = new Jedis("127.0.0.1", port)) {
				List<String> present = jedis.clusterGetKeysInSlot(this.slot, 100);
				for (String suffix : SUFFIXES) {
					String name = this.key + suffix;
					if (!present.contains(name)) {
						continue;
					}
					String shown = SUFFIXES[0].equals(suffix) ? "key" : suffix;
					keys.put(shown, show(jedis, asking, suffix, bytes(name)));
				}
			}
			return keys.toString();
		}

		private static String show(Jedis jedis, boolean asking, String suffix, byte[] name) {
			if (asking) {
				jedis.sendCommand(Protocol.Command.ASKING);
			}
			return switch (suffix) {
				case "" -> head(jedis.get(name));
				case ":q",
						":h" ->
					jedis.zrangeWithScores(name, 0, -1)
						.stream()
						.map((tuple) -> text(tuple.getBinaryElement()) + "@" + (long) tuple.getScore())
						.toList()
						.toString();
				default -> {
					Map<String, String> fields = new TreeMap<>();
					jedis.hgetAll(name).forEach((field, value) -> fields.put(text(field), entryOf(value)));
					yield fields.toString();
				}
			};
		}

		// The head value: its form, holder, instant, start, latest reading and handed
		// ticket (format version 3: the start after the instant).
		private static String head(byte[] raw) {
			ByteBuffer buffer = ByteBuffer.wrap(raw);
			if (raw.length >= 52 && raw[2] == 3 && raw[3] == 'W') {
				int ticketLength = (int) buffer.getLong(44);
				long expires = buffer.getLong(12);
				return "queued(holder " + ((expires > 0) ? text(raw, 52 + ticketLength, raw.length) : "none")
						+ " until " + expires + " from " + buffer.getLong(20) + ", latest " + buffer.getLong(4)
						+ ", handed '" + text(raw, 52, 52 + ticketLength) + "')";
			}
			if (raw.length >= 28 && raw[2] == 3 && raw[3] == 'G') {
				return "grant(holder " + text(raw, 28, raw.length) + " until " + buffer.getLong(12) + " from "
						+ buffer.getLong(20) + ", latest " + buffer.getLong(4) + ")";
			}
			return "bytes" + java.util.Arrays.toString(raw);
		}

		private static String entryOf(byte[] value) {
			if (value.length < 32) {
				return text(value);
			}
			ByteBuffer buffer = ByteBuffer.wrap(value);
			return text(value, 32, value.length) + "(bound " + buffer.getLong(16) + ", granted " + buffer.getLong(24)
					+ ")";
		}

		private boolean epochsAgree() {
			List<Map<String, String>> views = new ArrayList<>();
			for (int port : this.cluster.ports()) {
				try (Jedis jedis = new Jedis("127.0.0.1", port)) {
					Map<String, String> epochs = new TreeMap<>();
					for (String line : jedis.clusterNodes().split("\n")) {
						String[] fields = line.trim().split(" ");
						epochs.put(fields[0], fields[6]);
					}
					views.add(epochs);
				}
			}
			return views.stream().distinct().count() == 1;
		}

		// What every master answers for the key: "served" on the target, "MOVED <port>"
		// naming the target on the others once they all agree.
		private String servedBy() {
			List<String> answers = new ArrayList<>();
			for (int port : this.cluster.ports()) {
				try (Jedis jedis = new Jedis("127.0.0.1", port)) {
					jedis.exists(this.key);
					answers.add(port + " served");
				}
				catch (JedisDataException ex) {
					answers.add(port + " " + ex.getMessage());
				}
			}
			return String.join(", ", answers);
		}

		private String servedByTarget() {
			return this.cluster.ports()
				.stream()
				.map((port) -> port + ((port == this.to) ? " served" : " MOVED " + this.slot + " 127.0.0.1:" + this.to))
				.collect(Collectors.joining(", "));
		}

		private boolean exists(int port, String name) {
			try (Jedis jedis = new Jedis("127.0.0.1", port)) {
				return jedis.clusterGetKeysInSlot(this.slot, 100).contains(name);
			}
		}

		private static long time(int port) {
			try (Jedis jedis = new Jedis("127.0.0.1", port)) {
				List<String> time = jedis.time();
				return Long.parseLong(time.get(0)) * 1_000_000 + Long.parseLong(time.get(1));
			}
		}

	}

	/**
	 * What a call came to: the script's answer, or the error of the node that refused it.
	 */
	private record Outcome(String node, List<Object> answer, String error) {

		// Whether the script ran (Redis refuses it before it runs with the keys split).
		boolean ranScript() {
			return this.answer != null || this.error.contains("non local key")
					|| this.error.contains("moving between two masters");
		}

		boolean isMigrating() {
			return RedisMigrations.isMigrating(new IllegalStateException(this.error));
		}

		String where() {
			if (this.answer != null) {
				return "answered " + this.node;
			}
			if (this.error.startsWith("TRYAGAIN")) {
				return "TRYAGAIN " + this.node;
			}
			return "failed " + this.node;
		}

		String describe() {
			return (this.answer != null) ? this.answer.stream()
				.map((value) -> (value instanceof byte[] raw) ? text(raw) : String.valueOf(value))
				.toList()
				.toString() : this.error;
		}

	}

}
