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
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.QueuedTakes;
import dev.lease.host.Wakeups;

/**
 * An answer of {@code lease.lua}, read once, by the one decoder of the script's answers.
 * Every instant is in microseconds since the epoch and every term in microseconds, both
 * on Redis {@code TIME} as the script read it. The script answers an array whose first
 * element is a code:
 * <table>
 * <caption>The script's answers, per operation</caption>
 * <tr>
 * <th>operation (ARGV)</th>
 * <th>answer</th>
 * <th>read as</th>
 * </tr>
 * <tr>
 * <td rowspan="3">{@code try holder duration}</td>
 * <td>{@code 1 expiresAt}</td>
 * <td>{@link Granted}</td>
 * </tr>
 * <tr>
 * <td>{@code 0}</td>
 * <td>{@link Refused}</td>
 * </tr>
 * <tr>
 * <td>{@code -1}</td>
 * <td>{@link Reentrant}</td>
 * </tr>
 * <tr>
 * <td rowspan="3">{@code take holder duration ticket}</td>
 * <td>{@code 1 expiresAt}</td>
 * <td>{@link Granted}</td>
 * </tr>
 * <tr>
 * <td>{@code 0 timeToBound standingRemaining next}</td>
 * <td>{@link Queued}; {@code next} is 1 when the waiter is next in line (it asks when the
 * standing grant ends), else 0</td>
 * </tr>
 * <tr>
 * <td>{@code -1}</td>
 * <td>{@link Reentrant}</td>
 * </tr>
 * <tr>
 * <td rowspan="3">{@code ask ticket 0 channel},
 * {@code settle ticket interrupted channel}</td>
 * <td>{@code 1 expiresAt}</td>
 * <td>{@link Granted}: handed to the ticket (settle: and taken up; interrupted: given
 * back)</td>
 * </tr>
 * <tr>
 * <td>{@code 0 timeToBound standingRemaining next [handedTicket expiresAt]}</td>
 * <td>{@link Queued}: still waiting, nothing withdrawn; {@code next} as for take; ask
 * only: the ticket the standing grant was handed to and its instant, when it was handed
 * to a waiter</td>
 * </tr>
 * <tr>
 * <td>{@code 2}</td>
 * <td>{@link Refused}: not granted, and no longer queued (settle: withdrawn)</td>
 * </tr>
 * <tr>
 * <td rowspan="2">{@code remaining holder}</td>
 * <td>{@code 1 term}</td>
 * <td>{@link #remaining}: the term</td>
 * </tr>
 * <tr>
 * <td>{@code 0}</td>
 * <td>{@link #remaining}: none</td>
 * </tr>
 * <tr>
 * <td rowspan="3">{@code release holder channel}</td>
 * <td>{@code 1}</td>
 * <td>{@link Ended} with nobody handed the key</td>
 * </tr>
 * <tr>
 * <td>{@code 1 ticket expiresAt}</td>
 * <td>{@link Ended}, handed on to that ticket (also published on the channel)</td>
 * </tr>
 * <tr>
 * <td>published on {@code <prefix>handoff} by any operation that hands the key on or
 * withdraws the waiter next in line (the channel argument of {@code ask}, {@code settle}
 * and {@code release} is the same channel, kept for compatibility)</td>
 * <td>a {@link RedisHandoffMessage}, whose Javadoc states its format</td>
 * <td>{@link RedisHandoffSubscription}: wakes the waiter the key was handed to and tells
 * the waiter next in line when the standing grant ends</td>
 * </tr>
 * <tr>
 * <td>{@code 0}</td>
 * <td>{@link NotHolder}</td>
 * </tr>
 * <tr>
 * <td rowspan="2">{@code grant} (writes nothing)</td>
 * <td>{@code 1 holder expiresAt grantedAt}</td>
 * <td>{@link Standing}: {@code grantedAt} is when the grant began, 0 where the key's
 * state, written by an earlier snapshot, kept no start</td>
 * </tr>
 * <tr>
 * <td>{@code 0}</td>
 * <td>none</td>
 * </tr>
 * <tr>
 * <td>{@code waiting} (writes nothing)</td>
 * <td>{@code 1 count arrived}, or {@code 1 0} when none waits</td>
 * <td>{@link #waiting}: how many tickets wait past those the derivation at now hands the
 * key on through, a ticket past its bound included until it is withdrawn, and the instant
 * the first of them was queued at (0 when none waits or none was kept)</td>
 * </tr>
 * <tr>
 * <td rowspan="2">any</td>
 * <td>{@code -2 kind}</td>
 * <td>{@link LeaseHostException}: the key holds a value that is not lease state
 * ({@code string} or the Redis type), left untouched</td>
 * </tr>
 * <tr>
 * <td>{@code -3 version}</td>
 * <td>{@link LeaseHostException}: lease state of a format version this script does not
 * know (a later one, or version 1's whole-queue form of hosts before format version 2),
 * left untouched</td>
 * </tr>
 * </table>
 * Any other answer fails with {@link LeaseHostException} naming it.
 *
 * @author Lease contributors
 */
sealed interface RedisScriptAnswer {

	static TryTakeAnswer tryTake(List<Object> answer) {
		return switch (code(answer)) {
			case 1 -> new Granted(number(answer, 1));
			case 0 -> new Refused();
			case -1 -> new Reentrant();
			default -> throw unexpected(answer);
		};
	}

	static TakeAnswer take(List<Object> answer) {
		return switch (code(answer)) {
			case 1 -> new Granted(number(answer, 1));
			case 0 -> queued(answer);
			case -1 -> new Reentrant();
			default -> throw unexpected(answer);
		};
	}

	static WaiterAnswer waiter(List<Object> answer) {
		return switch (code(answer)) {
			case 1 -> new Granted(number(answer, 1));
			case 0 -> queued(answer);
			case 2 -> new Refused();
			default -> throw unexpected(answer);
		};
	}

	// 0 timeToBound standingRemaining [next [handedTicket handedExpiresAt]]
	private static Queued queued(List<Object> answer) {
		boolean next = answer.size() > 3 && number(answer, 3) == 1;
		Wakeups.Handoff<String> handed = (answer.size() > 5) ? handoff(answer, 4) : null;
		return new Queued(number(answer, 1), number(answer, 2), next, handed);
	}

	static @Nullable Duration remaining(List<Object> answer) {
		return switch (code(answer)) {
			case 1 -> Duration.ofNanos(number(answer, 1) * 1000);
			case 0 -> null;
			default -> throw unexpected(answer);
		};
	}

	static ReleaseAnswer release(List<Object> answer) {
		return switch (code(answer)) {
			case 1 -> new Ended((answer.size() == 3) ? handoff(answer, 1) : null);
			case 0 -> new NotHolder();
			default -> throw unexpected(answer);
		};
	}

	// A ticket and its grant's instant: a waiter handed the key.
	private static Wakeups.Handoff<String> handoff(List<Object> answer, int index) {
		return new Wakeups.Handoff<>(new String(bytes(answer, index), StandardCharsets.US_ASCII),
				instant(number(answer, index + 1)));
	}

	static @Nullable Standing grant(List<Object> answer) {
		return switch (code(answer)) {
			case 1 -> new Standing(bytes(answer, 1), number(answer, 2), number(answer, 3));
			case 0 -> null;
			default -> throw unexpected(answer);
		};
	}

	static QueuedTakes waiting(List<Object> answer) {
		if (code(answer) != 1) {
			throw unexpected(answer);
		}
		int count = Math.toIntExact(number(answer, 1));
		if (count == 0) {
			return QueuedTakes.NONE;
		}
		long arrived = number(answer, 2);
		return new QueuedTakes(count, (arrived > 0) ? instant(arrived) : null);
	}

	// The answers every operation may give when the key holds no lease state it can read
	// (the script touched nothing), as failures; read first, for every answer.
	static void requireLeaseState(byte[] key, List<Object> answer) {
		if (!(answer.get(0) instanceof Long code) || code >= -1) {
			return;
		}
		String redisKey = new String(key, StandardCharsets.US_ASCII);
		String prefix = redisKey.substring(0, Math.max(0, redisKey.lastIndexOf('{')));
		Object detail = (answer.size() > 1) ? answer.get(1) : null;
		if (code == -3) {
			throw new LeaseHostException("Redis key '" + redisKey + "' holds lease state of format version " + detail
					+ ", which this version of the lease host (format version " + RedisLeaseScript.FORMAT_VERSION
					+ ") cannot read: every application sharing the key prefix '" + prefix
					+ "' must run a lease host of the same format; it was left untouched");
		}
		String kind = (detail instanceof byte[] bytes) ? new String(bytes, StandardCharsets.US_ASCII) : "a value";
		throw new LeaseHostException("Redis key '" + redisKey + "' holds a " + kind
				+ " that is not lease state, so the key prefix '" + prefix
				+ "' is shared with something else (another application, or a lease host older than format version "
				+ RedisLeaseScript.FORMAT_VERSION + "); it was left untouched. Give the lease host a prefix of its own:"
				+ " set lease.redis.key-prefix (RedisLeaseHost.Builder#keyPrefix)");
	}

	static Instant instant(long micros) {
		return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
	}

	// The code, or one no operation answers.
	private static int code(List<Object> answer) {
		long code = number(answer, 0);
		return (code >= -1 && code <= 2) ? (int) code : Integer.MIN_VALUE;
	}

	private static long number(List<Object> answer, int index) {
		if (answer.size() > index && answer.get(index) instanceof Number number) {
			return number.longValue();
		}
		throw unexpected(answer);
	}

	private static byte[] bytes(List<Object> answer, int index) {
		if (answer.size() > index && answer.get(index) instanceof byte[] bytes) {
			return bytes;
		}
		throw unexpected(answer);
	}

	private static LeaseHostException unexpected(List<Object> answer) {
		return new LeaseHostException("Unexpected answer from lease.lua: " + answer);
	}

	/**
	 * What {@code try} answers.
	 */
	sealed interface TryTakeAnswer extends RedisScriptAnswer {

	}

	/**
	 * What {@code take} answers.
	 */
	sealed interface TakeAnswer extends RedisScriptAnswer {

	}

	/**
	 * What a waiter's {@code ask} or {@code settle} answers.
	 */
	sealed interface WaiterAnswer extends RedisScriptAnswer {

	}

	/**
	 * What {@code release} answers.
	 */
	sealed interface ReleaseAnswer extends RedisScriptAnswer {

	}

	/**
	 * The key is granted to the caller (or handed to the waiter asking) until the
	 * instant.
	 *
	 * @param expiresAt the grant's instant, in microseconds since the epoch
	 */
	record Granted(long expiresAt) implements TryTakeAnswer, TakeAnswer, WaiterAnswer {

		Instant instant() {
			return RedisScriptAnswer.instant(this.expiresAt);
		}

	}

	/**
	 * The key not granted: another holder's grant stands, for a try, or the waiter is no
	 * longer queued (settle: withdrawn), for a waiter's question; the host kit's
	 * {@link dev.lease.host.TakeAnswer.Refused}.
	 */
	record Refused() implements TryTakeAnswer, WaiterAnswer {

	}

	/**
	 * The caller holds the key or waits for it already; nothing changed.
	 */
	record Reentrant() implements TryTakeAnswer, TakeAnswer {

	}

	/**
	 * The waiter is queued.
	 *
	 * @param toBound the time to its bound, in microseconds
	 * @param standingRemaining the standing grant's remaining term, in microseconds
	 * @param next whether the waiter is next in line, and so must ask when the standing
	 * grant ends
	 * @param handed the waiter the standing grant was handed to, if it was (for the
	 * asker's host to wake it should its message have been lost)
	 */
	record Queued(long toBound, long standingRemaining, boolean next,
			Wakeups.@Nullable Handoff<String> handed) implements TakeAnswer, WaiterAnswer {

	}

	/**
	 * The holder's grant ended.
	 *
	 * @param handedOn the waiter the key was handed to in the same step, if any
	 */
	record Ended(Wakeups.@Nullable Handoff<String> handedOn) implements ReleaseAnswer {

	}

	/**
	 * The caller does not hold the key; nothing changed.
	 */
	record NotHolder() implements ReleaseAnswer {

	}

	/**
	 * The grant standing on a key.
	 *
	 * @param holder the holder's bytes
	 * @param expiresAt its instant, in microseconds since the epoch
	 * @param grantedAt when it began, in microseconds since the epoch, or 0 where the
	 * stored state kept no start
	 */
	record Standing(byte[] holder, long expiresAt, long grantedAt) implements RedisScriptAnswer {

		Lease lease(LeaseKey key) {
			return new Lease(key, LeaseHolder.of(this.holder), instant(this.expiresAt));
		}

		// Whether this is that grant: its holder and its instant.
		boolean is(Lease grant) {
			return Arrays.equals(this.holder, grant.holder().bytes())
					&& instant(this.expiresAt).equals(grant.expiresAt());
		}

		// When the grant began, or null where no start was kept.
		@Nullable Instant start() {
			return (this.grantedAt > 0) ? instant(this.grantedAt) : null;
		}

	}

}
