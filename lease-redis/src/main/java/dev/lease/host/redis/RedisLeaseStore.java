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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.util.ClassUtils;

import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.QueuedTakes;
import dev.lease.host.StoreProtocolReading;
import dev.lease.host.Wakeups;
import dev.lease.host.redis.RedisScriptAnswer.Ended;
import dev.lease.host.redis.RedisScriptAnswer.ReleaseAnswer;
import dev.lease.host.redis.RedisScriptAnswer.Standing;
import dev.lease.host.redis.RedisScriptAnswer.TakeAnswer;
import dev.lease.host.redis.RedisScriptAnswer.TryTakeAnswer;
import dev.lease.host.redis.RedisScriptAnswer.WaiterAnswer;

/**
 * Where a {@link RedisLeaseHost} keeps its leases: each question one call of
 * {@code lease.lua} on the lease's Redis key ({@link RedisKeyCodec}), its answer read by
 * {@link RedisScriptAnswer}; and the gate every grant passes before it is answered
 * {@code Taken}: the durability verdict, and with replicas-to-ack the replicas'
 * confirmation, a grant that fails either given back.
 *
 * @author Lease contributors
 */
final class RedisLeaseStore {

	private static final long DEFAULT_COMMAND_TIMEOUT_MILLIS = 60_000;

	static final boolean lettucePresent = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			RedisLeaseStore.class.getClassLoader());

	static final boolean jedisPresent = ClassUtils.isPresent("redis.clients.jedis.Jedis",
			RedisLeaseStore.class.getClassLoader());

	private final RedisConnectionFactory connectionFactory;

	private final RedisKeyCodec keys;

	private final String keyPrefix;

	private volatile RedisHandoffChannels handoffChannels;

	private final ReplicaAcknowledgements acknowledgements;

	private final long commandTimeoutMillis;

	private final RedisLeaseScript script;

	private final RedisGrantReads grantReads;

	private final RedisDurabilityMonitor durability;

	private final RedisCalls calls;

	private final BiConsumer<String, Wakeups.Handoff<String>> handedOn;

	private final RedisProtocolRecord protocol;

	// handedOn: told of a handoff made here: this JVM's waiter need not wait for its
	// message.
	RedisLeaseStore(RedisConnectionFactory connectionFactory, String keyPrefix, int replicasToAck,
			Duration replicaTimeout, RedisDurabilityMonitor durability,
			BiConsumer<String, Wakeups.Handoff<String>> handedOn) {
		this.connectionFactory = connectionFactory;
		this.keys = new RedisKeyCodec(keyPrefix);
		this.keyPrefix = keyPrefix;
		this.handoffChannels = new RedisHandoffChannels(keyPrefix, false);
		this.commandTimeoutMillis = lettucePresent
				? LettuceCommands.timeoutMillis(connectionFactory, DEFAULT_COMMAND_TIMEOUT_MILLIS)
				: DEFAULT_COMMAND_TIMEOUT_MILLIS;
		this.acknowledgements = new ReplicaAcknowledgements(connectionFactory, replicasToAck, replicaTimeout,
				this.commandTimeoutMillis, keyPrefix);
		this.script = new RedisLeaseScript(this.commandTimeoutMillis);
		this.grantReads = new RedisGrantReads(this.keys, this.script, this.commandTimeoutMillis);
		this.durability = durability;
		this.calls = new RedisCalls(connectionFactory, durability);
		this.handedOn = handedOn;
		this.protocol = new RedisProtocolRecord(keyPrefix);
	}

	// Whether the failure is Redis not answering, not an answer refused: the store's
	// calls wrap every failure to reach the server, and only those, with the client's.
	static boolean unreachable(LeaseHostException ex) {
		return ex.getCause() instanceof DataAccessException;
	}

	// Meet the prefix's protocol record, load the script and read the server's
	// durability for the first time; with replicas-to-ack, first make sure the server
	// serves what confirms a grant. A protocol this one cannot work beside fails the
	// start before anything is written under the prefix but the record.
	void start() {
		call("start", (connection) -> {
			this.acknowledgements.requireCommands(connection);
			this.protocol.meet(connection);
			this.script.load(connection);
			this.durability.start(connection);
			this.handoffChannels = RedisHandoffChannels.chosen(this.keyPrefix, this.connectionFactory, connection);
			this.script.publishSharded(this.handoffChannels);
			return null;
		});
	}

	// Close what the store opened of its own: the connection acknowledgements go out on.
	void close() {
		this.acknowledgements.close();
	}

	StoreProtocolReading protocol() {
		return call("read the protocol record", this.protocol::read);
	}

	RedisHandoffChannels handoffChannels() {
		return this.handoffChannels;
	}

	byte[] redisKey(LeaseKey key) {
		return this.keys.redisKey(key);
	}

	TryTakeAnswer tryTake(byte[] redisKey, LeaseHolder holder, Duration duration) {
		return RedisScriptAnswer
			.tryTake(run("try_take", redisKey, RedisScriptArguments.tryTakeArguments(holder, duration)));
	}

	// A take's first question, dropped at an interrupt before it is sent (GaveUp). Not
	// queued, it has no bound: the client's timeout and its slot's subscription bound it.
	TakeAnswer take(byte[] redisKey, LeaseHolder holder, Duration duration, byte[] ticket,
			RedisHandoffSubscription subscription) {
		long answerBy = System.nanoTime() + this.script.waiterRetryNanos();
		// It waits for its key's handoffs, FIRST_QUESTION_WAIT_MILLIS at most; an
		// interrupt meanwhile is left for the question to see.
		try {
			subscription.waiting(redisKey)
				.get(RedisHandoffSubscription.FIRST_QUESTION_WAIT_MILLIS, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// its waiters ask on their own
		}
		return RedisScriptAnswer
			.take(runWaiter(redisKey, true, answerBy, RedisScriptArguments.takeArguments(holder, duration, ticket)));
	}

	// "Where do I stand?": saves nothing of the waiter's own and, before its bound,
	// withdraws nothing; the script saves what resolving handed on, so that the waiter
	// it names is woken. Dropped at an interrupt before it is sent (GaveUp).
	WaiterAnswer ask(byte[] redisKey, byte[] ticket, long answerBy) {
		return RedisScriptAnswer.waiter(runWaiter(redisKey, true, answerBy, RedisScriptArguments.askArguments(ticket)));
	}

	// "Withdraw me, or tell me I was granted": at the bound; or at an interrupt, where a
	// grant handed at that moment is given back.
	WaiterAnswer settle(byte[] redisKey, byte[] ticket, boolean interrupted) {
		return settle(redisKey, ticket, interrupted, System.nanoTime() + this.script.waiterRetryNanos());
	}

	// As above, answered by answerBy (a System.nanoTime() reading) or failed.
	WaiterAnswer settle(byte[] redisKey, byte[] ticket, boolean interrupted, long answerBy) {
		return RedisScriptAnswer
			.waiter(runWaiter(redisKey, false, answerBy, RedisScriptArguments.settleArguments(ticket, interrupted)));
	}

	Optional<Duration> remaining(byte[] redisKey, LeaseHolder holder) {
		return Optional.ofNullable(RedisScriptAnswer
			.remaining(run("remaining", redisKey, RedisScriptArguments.remainingArguments(holder))));
	}

	// Whether the holder's grant ended; a waiter it was handed on to hears of it here.
	// With replicas-to-ack the end is confirmed as a grant is: a failover loses a release
	// the replicas lacked and brings its grant back, after its holder was told it ended.
	boolean release(byte[] redisKey, LeaseHolder holder) {
		return release(redisKey, holder, this.acknowledgements.asked());
	}

	private boolean release(byte[] redisKey, LeaseHolder holder, boolean acknowledged) {
		return call("release", (connection) -> {
			boolean[] ended = new boolean[1];
			Predicate<RedisConnection> release = (on) -> {
				ended[0] = ended(redisKey,
						this.script.run(on, redisKey, RedisScriptArguments.releaseArguments(holder)));
				return ended[0];
			};
			if (!acknowledged) {
				return release.test(connection);
			}
			String shortfall = this.acknowledgements.shortfall(
					this.acknowledgements.acknowledged(connection, redisKey, release),
					"the release of a grant on Redis key '" + new String(redisKey, StandardCharsets.US_ASCII) + "'");
			if (ended[0] && shortfall != null) {
				throw new LeaseHostException(shortfall + ": the release was not acknowledged, and a failover before"
						+ " the replicas catch up brings the grant back until its instant");
			}
			return ended[0];
		});
	}

	// Whether the script's answer to a release is that the grant ended; a waiter of this
	// JVM it was handed on to wakes at once, without waiting for its message.
	boolean ended(byte[] redisKey, List<Object> answered) {
		ReleaseAnswer answer = RedisScriptAnswer.release(answered);
		if (answer instanceof Ended end && end.handedOn() != null) {
			this.handedOn.accept(new String(redisKey, StandardCharsets.US_ASCII), end.handedOn());
		}
		return answer instanceof Ended;
	}

	// For a caller that sends the script's questions itself (LettuceAsyncTakes).
	RedisConnectionFactory connectionFactory() {
		return this.connectionFactory;
	}

	RedisLeaseScript script() {
		return this.script;
	}

	long commandTimeoutMillis() {
		return this.commandTimeoutMillis;
	}

	// Why a grant answered now is given back (as in confirm()), or null when it stands.
	@Nullable LeaseHostException refusal() {
		return this.durability.refuses() ? this.durability.refusal() : null;
	}

	// Whether a grant must pass confirm() on a thread: to be given back, or acknowledged.
	boolean confirmBlocks() {
		return this.acknowledgements.asked() || this.durability.refuses();
	}

	// A call that could not reach Redis, as the blocking calls report it.
	LeaseHostException failed(String operation, Throwable failure) {
		if (failure instanceof LeaseHostException ex) {
			return ex;
		}
		return this.calls.failed(operation, failure);
	}

	GrantsPage grants(@Nullable RedisGrantsCursor cursor, int limit) {
		return call("list the grants", (connection) -> this.grantReads.page(connection, cursor, limit));
	}

	// The grant standing on the key as the script derives it now, with its start where
	// kept; writes nothing (Check 5.2).
	Optional<Standing> standing(LeaseKey key) {
		return Optional.ofNullable(
				RedisScriptAnswer.grant(run("read the standing grant", redisKey(key), RedisScriptArguments.GRANT)));
	}

	// How many takes wait for the key, derived by the script without writing (Check 5.2).
	QueuedTakes waiting(LeaseKey key) {
		return RedisScriptAnswer.waiting(run("read how many wait", redisKey(key), ascii("waiting")));
	}

	// With replicas-to-ack, confirm the grant with WAIT on the connection that wrote it
	// (for a handed grant: the settle that takes it up), and give it back when too few
	// replicas acknowledge, so that a failover cannot hand the key to a second holder.
	Lease confirm(byte[] redisKey, Lease lease, byte @Nullable [] ticket) {
		if (this.durability.refuses()) {
			// The server was found not durable while this grant was made or handed on.
			release(redisKey, lease.holder(), false);
			throw this.durability.refusal();
		}
		if (!this.acknowledgements.asked()) {
			return lease;
		}
		// The grant is read back in the session that waits: written through another
		// connection or before a reconnection, it may not be on the server asked. A
		// waiter
		// that server still has queued (its handoff lost in a failover) leaves the queue
		// with its grant given back, or a later release would hand the key to nobody.
		Runnable giveBack = () -> {
			if (ticket != null) {
				settle(redisKey, ticket, true);
			}
			release(redisKey, lease.holder(), false);
		};
		long acknowledged;
		try {
			acknowledged = call("wait",
					(connection) -> this.acknowledgements.acknowledged(connection, redisKey, (on) -> {
						if (ticket != null) {
							this.script.run(on, redisKey, this.script.waiterRetryNanos(),
									RedisScriptArguments.settleArguments(ticket, false));
						}
						Standing standing = RedisScriptAnswer
							.grant(this.script.run(on, redisKey, RedisScriptArguments.GRANT));
						return standing != null && standing.is(lease);
					}));
		}
		catch (LeaseHostException ex) { // WAIT refused or unanswered
			throw ReplicaAcknowledgements.givenBack(ex.getMessage(), ex, giveBack);
		}
		String shortfall = this.acknowledgements.shortfall(acknowledged, "the grant of key '" + lease.key() + "'");
		if (shortfall == null) {
			return lease;
		}
		throw ReplicaAcknowledgements.givenBack(shortfall, null, giveBack);
	}

	private List<Object> run(String operation, byte[] redisKey, byte[]... args) {
		return call(operation, (connection) -> this.script.run(connection, redisKey, args));
	}

	// A waiter's question (a take, ask or settle), asked again while the key's slot moves
	// for as long as a waiter's question may be; mayGiveUp: dropped at an interrupt that
	// comes before it is sent.
	private List<Object> runWaiter(byte[] redisKey, boolean mayGiveUp, long answerBy, byte[]... args) {
		return this.calls.call("take", mayGiveUp, answerBy,
				(connection) -> this.script.run(connection, redisKey, this.script.waiterRetryNanos(), answerBy, args));
	}

	private <T> T call(String operation, Function<RedisConnection, T> action) {
		return this.calls.call(operation, false, null, action);
	}

	static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
