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

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongFunction;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.host.HandedGrant;
import dev.lease.host.KeyModel;
import dev.lease.host.TakeAnswer;
import dev.lease.host.TakeAnswer.Granted;
import dev.lease.host.TakeAnswer.Queued;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one state model, checked: random operations on a few keys and holders (try takes,
 * takes that queue, releases, remainings, a waiter's ask and settle, how many wait, the
 * standing grant read with when it began, short terms that pass between steps) run
 * through lease.lua on the real Redis and through {@link KeyModel} from the state the
 * script stored before each step, at the instant the script read. Every answer and every
 * stored instant must agree. The script's instant is exact when it wrote the key (the
 * latest reading it stored); otherwise it lies between two readings of Redis TIME around
 * the call, and a step whose model answer differs across that window is counted, not
 * compared. A failing run names its seed: {@code -Dlease.differential.seed}.
 *
 * @author Lease contributors
 */
class RedisKeyModelDifferentialIntegrationTests {

	private static final int RUNS = 4;

	private static final int STEPS = 400;

	private static final String[] HOLDERS = { "h0", "h1", "h2" };

	private static final String[] OPS = { "try", "take", "take", "release", "remaining", "ask", "settle", "waiting",
			"grant" };

	private RedisTestServer server;

	private Jedis jedis;

	private byte[] script;

	private final List<String> keys = new ArrayList<>();

	@BeforeEach
	void connect() throws IOException {
		this.server = RedisTestServer.start();
		this.jedis = new Jedis(this.server.host(), this.server.port());
		try (InputStream in = RedisLeaseHost.class.getResourceAsStream("lease.lua")) {
			if (in == null) {
				throw new IllegalStateException("lease.lua is missing");
			}
			// The keep window is written in as RedisLeaseScript does when it loads the
			// text.
			this.script = new String(in.readAllBytes(), StandardCharsets.UTF_8)
				.replace("${HANDED_KEPT_MICROS}", Long.toString(KeyModel.HANDED_KEPT_MICROS))
				.getBytes(StandardCharsets.UTF_8);
		}
	}

	@AfterEach
	void cleanUp() {
		for (String key : this.keys) {
			this.jedis.del(key, key + ":q", key + ":w", key + ":h");
		}
		this.jedis.close();
		this.server.close();
	}

	@Test
	@DisplayName("Host semantics, Invariant 1, 4, Non-goal 1, 3, 4, Grants 8: lease.lua on Redis and KeyModel answer random operations alike and store the same instants, grants' starts included")
	void scriptAgreesWithKeyModel() {
		Long given = Long.getLong("lease.differential.seed");
		List<String> differences = new ArrayList<>();
		int[] counts = new int[2];
		int runs = (given != null) ? 1 : Integer.getInteger("lease.differential.runs", RUNS);
		for (int run = 0; run < runs; run++) {
			long seed = (given != null) ? given : ThreadLocalRandom.current().nextLong();
			differences.addAll(run(seed, counts));
		}
		System.out.printf(
				"lease.lua against KeyModel: %d steps compared, %d in a window where the model's answer" + " changes%n",
				counts[0], counts[1]);
		assertThat(differences).as("differences between lease.lua and KeyModel").isEmpty();
		assertThat(counts[0]).as("steps compared").isGreaterThan(counts[1]);
	}

	@Test
	@DisplayName("Non-goal 1, 4: a holder whose earlier waiter's bound has passed takes again; the stale waiter leaves the queue and the new one is next, in lease.lua as in KeyModel")
	void staleWaiterOfTheSameHolderLeavesTheQueue() {
		String key = "lease:differential:" + UUID.randomUUID() + ":{stale}";
		this.keys.add(key);
		int[] counts = new int[2];
		List<String> differences = new ArrayList<>();
		// x holds for 2 s (the first step of a JVM may be slow); h1 then h0 queue behind
		// it, both bound by x's instant.
		differences.add(step(key, "try", "x", 2_000_000, 0, false, counts));
		differences.add(step(key, "take", "h1", 10_000_000, 1, false, counts));
		differences.add(step(key, "take", "h0", 10_000_000, 2, false, counts));
		RedisLeaseState queued = RedisLeaseState.read(this.jedis, key);
		assertThat(queued).as("x holding with two waiters behind it").isNotNull();
		assertThat(queued.waiters()).as("waiters behind x").hasSize(2);
		// x's term passes: the key goes to h1 for 10 s, and h0's bound passes.
		pause(2300);
		differences.add(step(key, "remaining", "h1", 0, 0, false, counts));
		differences.add(step(key, "take", "h0", 500_000, 3, false, counts));
		assertThat(differences.stream().filter((difference) -> difference != null))
			.as("differences between lease.lua and KeyModel")
			.isEmpty();
	}

	@Test
	@DisplayName("Host semantics, Operation 6: a try take and a take of an absent key are answered and stored as KeyModel answers, the TTL counted from TIME")
	void absentKeyIsGrantedInThePlainForm() {
		int[] counts = new int[2];
		for (String op : new String[] { "try", "take" }) {
			String key = "lease:differential:" + UUID.randomUUID() + ":{absent}";
			this.keys.add(key);
			assertThat(step(key, op, "h0", 30_000_000, 1, false, counts)).as(op + " of an absent key").isNull();
			RedisLeaseState stored = RedisLeaseState.read(this.jedis, key);
			assertThat(stored).as("the plain form stored").isNotNull();
			assertThat(stored.waiters()).as("nobody queued").isEmpty();
			assertThat(stored.expiresAt() - stored.latest()).as("granted for its term").isEqualTo(30_000_000);
			assertThat(this.jedis.pttl(key)).as("TTL: the term and a second").isBetween(29_000L, 31_000L);
		}
		assertThat(counts[0]).as("steps compared").isEqualTo(2);
	}

	private List<String> run(long seed, int[] counts) {
		Random random = new Random(seed);
		String prefix = "lease:differential:" + UUID.randomUUID() + ":";
		String[] runKeys = { prefix + "{a}", prefix + "{b}" };
		this.keys.addAll(List.of(runKeys));
		Map<String, List<Long>> tickets = new HashMap<>();
		List<String> differences = new ArrayList<>();
		for (int step = 0; step < STEPS; step++) {
			String key = runKeys[random.nextInt(runKeys.length)];
			String holder = HOLDERS[random.nextInt(HOLDERS.length)];
			String op = OPS[random.nextInt(OPS.length)];
			long term = 1000L * (5 + random.nextInt(56));
			List<Long> issued = tickets.computeIfAbsent(key, (k) -> new ArrayList<>());
			if ((op.equals("ask") || op.equals("settle")) && issued.isEmpty()) {
				op = "remaining";
			}
			long ticket = switch (op) {
				case "take" -> issued.size() + 1L;
				case "ask", "settle" -> issued.get(random.nextInt(issued.size()));
				default -> 0;
			};
			if (op.equals("take")) {
				issued.add(ticket);
			}
			boolean interrupted = random.nextInt(4) == 0;
			String difference = step(key, op, holder, term, ticket, interrupted, counts);
			if (difference != null) {
				differences.add("seed=" + seed + " step " + step + ": " + difference);
			}
			pause(random.nextInt(25));
		}
		return differences;
	}

	// One operation on the script and on the model read from the state stored before it.
	private @Nullable String step(String key, String op, String holder, long term, long ticket, boolean interrupted,
			int[] counts) {
		RedisLeaseState before = RedisLeaseState.read(this.jedis, key);
		long from = time();
		List<Object> answer = call(key, op, holder, term, ticket, interrupted);
		long to = time();
		RedisLeaseState after = RedisLeaseState.read(this.jedis, key);
		// Redis may expire the key between the call and the read above.
		long read = time();
		String redis = redisOutcome(op, answer);
		String what = op + "(" + ((ticket != 0) ? "ticket " + ticket : holder) + ", " + term + ") on " + key + " from "
				+ before + " -> " + after + ": lease.lua " + redis;
		LongFunction<Result> model = (reading) -> model(key, before, op, holder, term, ticket, interrupted, reading);
		if (after != null && after.latest() >= from) {
			counts[0]++;
			Result expected = model.apply(after.latest());
			if (!expected.outcome().equals(redis)) {
				return what + ", KeyModel " + expected.outcome();
			}
			String state = state(after);
			String modelState = expected.state();
			if (after.waiters().isEmpty() && after.handed().isEmpty()) {
				// The plain form keeps no count of arrivals: numbering starts again with
				// the next queue, which orders its waiters alike.
				state = state.replaceAll(", arrivals \\d+", "");
				modelState = modelState.replaceAll(", arrivals \\d+", "");
			}
			return modelState.equals(state) ? null : what + ": stored " + state + ", KeyModel " + modelState;
		}
		long earliest = (before != null) ? Math.max(before.latest(), from) : from;
		long latest = (before != null) ? Math.max(before.latest(), to) : to;
		Result early = model.apply(earliest);
		Result late = model.apply(latest);
		if (!early.outcome().equals(late.outcome())) {
			counts[1]++;
			return null;
		}
		counts[0]++;
		if (!early.outcome().equals(redis)) {
			return what + ", KeyModel " + early.outcome();
		}
		if (after == null && !(early.free() && late.free()) && !late.freeAt(read)) {
			return what + ": deleted, KeyModel " + early.state();
		}
		return null;
	}

	private Result model(String key, @Nullable RedisLeaseState before, String op, String holder, long term, long ticket,
			boolean interrupted, long reading) {
		KeyModel model = RedisLeaseState.model(LeaseKey.of(key), before);
		long now = model.now(reading);
		model.resolve(now);
		int handedBefore = model.handed().size();
		LeaseHolder asking = LeaseHolder.of(holder);
		String outcome;
		try {
			outcome = switch (op) {
				case "try", "take" -> takeOutcome(model.take(asking, term, now, op.equals("take"), () -> ticket), now);
				case "remaining" -> model.remaining(asking, now)
					.map((remaining) -> "remaining " + remaining.toNanos() / 1000)
					.orElse("none");
				case "release" -> model.release(asking, now) ? released(model.handed(), handedBefore) : "not-held";
				case "waiting" -> "waiting " + model.queued();
				case "grant" -> (model.holder() != null)
						? "grant " + model.holder() + " until " + model.expiresAt() + " from " + model.grantedAt()
						: "none";
				default -> ask(model, before, ticket, now, op.equals("settle") && interrupted);
			};
		}
		catch (ReentrantTakeException ex) {
			outcome = "reentrant";
		}
		String state = ((model.holder() != null)
				? model.holder() + " until " + model.expiresAt() + " from " + model.grantedAt() : "free") + ", latest "
				+ model.latest() + ", arrivals " + model.arrivals() + ", " + model.queued() + " queued, head "
				+ ((model.head() != null) ? model.head().id() : "none");
		return new Result(outcome, state, model.isFree(now), model);
	}

	private String ask(KeyModel model, @Nullable RedisLeaseState before, long ticket, long now, boolean givingUp) {
		LeaseHolder waiter = (before != null) ? before.waiters()
			.stream()
			.filter((w) -> w.id() == ticket)
			.map((w) -> w.holder())
			.findFirst()
			.orElse(null) : null;
		RedisLeaseState.Handed handed = (before != null) ? before.handedTo(ticket) : null;
		if (handed != null) {
			waiter = handed.holder();
		}
		if (waiter == null) {
			// Neither queued nor kept: withdrawn, or never queued.
			waiter = LeaseHolder.of("nobody");
		}
		return takeOutcome(model.ask(ticket, waiter,
				(handed != null) ? OptionalLong.of(handed.expiresAt()) : OptionalLong.empty(), now, givingUp), now);
	}

	private static String takeOutcome(TakeAnswer answer, long now) {
		if (answer instanceof Granted granted) {
			return "granted " + granted.expiresAt();
		}
		if (answer instanceof Queued queued) {
			return "queued bound-now " + (queued.bound() - now) + ", grant-now " + (queued.grantExpiresAt() - now)
					+ ", next " + queued.next();
		}
		return "refused";
	}

	private static String released(List<HandedGrant> handed, int before) {
		return (handed.size() > before)
				? "released to " + handed.get(before).waiter().id() + " until " + handed.get(before).expiresAt()
				: "released";
	}

	private static String redisOutcome(String op, List<Object> answer) {
		long code = (Long) answer.get(0);
		if (code < -1) {
			return "error " + answer;
		}
		if (code == -1) {
			return "reentrant";
		}
		return switch (op) {
			case "remaining" -> (code == 1) ? "remaining " + answer.get(1) : "none";
			case "waiting" -> "waiting " + answer.get(1);
			case "grant" -> (code == 1) ? "grant " + LeaseHolder.of((byte[]) answer.get(1)) + " until " + answer.get(2)
					+ " from " + answer.get(3) : "none";
			case "release" -> (code == 0) ? "not-held" : (answer.size() > 1)
					? "released to " + new String((byte[]) answer.get(1)) + " until " + answer.get(2) : "released";
			default -> switch ((int) code) {
				case 1 -> "granted " + answer.get(1);
				case 0 -> (answer.size() == 1) ? "refused" : "queued bound-now " + answer.get(1) + ", grant-now "
						+ answer.get(2) + ", next " + ((Long) answer.get(3) == 1);
				default -> "refused";
			};
		};
	}

	private static String state(RedisLeaseState state) {
		return ((state.holder() != null && state.expiresAt() > state.latest())
				? LeaseHolder.of(state.holder()) + " until " + state.expiresAt() + " from " + state.grantedAt()
				: "free") + ", latest " + state.latest() + ", arrivals " + state.arrivals() + ", "
				+ state.waiters().size() + " queued, head "
				+ (state.waiters().isEmpty() ? "none" : state.waiters().get(0).id());
	}

	@SuppressWarnings("unchecked")
	private List<Object> call(String key, String op, String holder, long term, long ticket, boolean interrupted) {
		List<String> args = switch (op) {
			case "try", "take" -> List.of(op, holder, Long.toString(term), Long.toString(ticket));
			case "ask" -> List.of(op, Long.toString(ticket));
			case "settle" -> List.of(op, Long.toString(ticket), interrupted ? "1" : "0");
			default -> List.of(op, holder);
		};
		List<byte[]> argv = args.stream().map(RedisLeaseState::bytes).toList();
		List<byte[]> keys = Stream.of(key, key + ":q", key + ":w", key + ":h").map(RedisLeaseState::bytes).toList();
		return (List<Object>) this.jedis.eval(this.script, keys, argv);
	}

	private long time() {
		List<String> time = this.jedis.time();
		return Long.parseLong(time.get(0)) * 1_000_000 + Long.parseLong(time.get(1));
	}

	private static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new UncheckedIOException(new IOException(ex));
		}
	}

	private record Result(String outcome, String state, boolean free, KeyModel model) {

		// Whether the state the operation left is free at a later reading of Redis TIME:
		// a
		// grant whose key Redis has expired by then.
		boolean freeAt(long reading) {
			return this.model.isFree(reading);
		}

	}

}
