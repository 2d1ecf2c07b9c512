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
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.util.ClassUtils;

import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseDurations;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.ReentrantTakeException;
import dev.lease.ReleaseResult;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.Unavailable;
import dev.lease.host.redis.RedisScriptAnswer.Granted;
import dev.lease.host.redis.RedisScriptAnswer.Queued;
import dev.lease.host.redis.RedisScriptAnswer.ReleaseAnswer;
import dev.lease.host.redis.RedisScriptAnswer.Standing;
import dev.lease.host.redis.RedisScriptAnswer.TakeAnswer;
import dev.lease.host.redis.RedisScriptAnswer.TryTakeAnswer;
import dev.lease.host.redis.RedisScriptAnswer.WaiterAnswer;
import dev.lease.host.redis.RedisWakeups.Signal;

/**
 * A {@link LeaseHost} on Redis, through any {@link RedisConnectionFactory} (Lettuce or
 * Jedis; single node, Sentinel or Cluster). The state model of every host is one Lua
 * script ({@code lease.lua} beside this class) called by its SHA: try_take, remaining and
 * release are one round trip each, and so is a take of a free key. Every instant is read
 * from Redis {@code TIME} inside the script, in microseconds, and never goes back for a
 * key; this JVM's clock decides nothing.
 * <p>
 * A lease is one Redis key, {@code <prefix>{<base64url of the key bytes>}}: injective,
 * and in one cluster hash slot. Key and holder are stored as bytes. A released or expired
 * lease with no waiters leaves no key; TTLs are garbage collection only.
 * <p>
 * Waiters are queued at the server. A release hands the key to the first waiter whose
 * bound has not passed inside the release script and publishes the lease's Redis key on
 * one channel, {@code <prefix>handoff}, to which each host holds one subscription. A
 * waiter also asks where it stands at the earlier of the standing grant's remaining term
 * and half its own duration, so a lost message costs latency only.
 * <p>
 * Create one with {@link #builder(RedisConnectionFactory)}, and {@link #close()} it to
 * end its subscription.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class RedisLeaseHost implements LeaseHost, AutoCloseable {

	/** The default prefix of every Redis key and of the channel. */
	public static final String DEFAULT_KEY_PREFIX = "lease:";

	private static final Duration RESOLUTION = Duration.ofNanos(1000);

	private static final Duration MAXIMUM = Duration.ofDays(36_500);

	private static final int KEY_PREFIX_MAXIMUM = 128;

	private static final int WITHDRAW_ATTEMPTS = 4;

	private static final long DEFAULT_COMMAND_TIMEOUT_MILLIS = 60_000;

	private static final byte[] TRY = ascii("try");

	private static final byte[] TAKE = ascii("take");

	private static final byte[] ASK = ascii("ask");

	private static final byte[] SETTLE = ascii("settle");

	private static final byte[] REMAINING = ascii("remaining");

	private static final byte[] RELEASE = ascii("release");

	private static final byte[] GRANT = ascii("grant");

	private static final byte[] YES = ascii("1");

	private static final byte[] NO = ascii("0");

	private static final SecureRandom random = new SecureRandom();

	private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

	private static final boolean lettucePresent = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			RedisLeaseHost.class.getClassLoader());

	private final RedisConnectionFactory connectionFactory;

	private final String keyPrefix;

	private final byte[] keyPrefixBytes;

	private final byte[] channel;

	private final int replicasToAck;

	private final Duration replicaTimeout;

	private final long commandTimeoutMillis;

	private final RedisLeaseScript script;

	private final RedisCalls calls;

	private final RedisDurabilityMonitor durability;

	private final RedisWakeups wakeups;

	private RedisLeaseHost(Builder builder) {
		this.connectionFactory = builder.connectionFactory;
		this.keyPrefix = builder.keyPrefix;
		this.keyPrefixBytes = ascii(builder.keyPrefix);
		this.channel = ascii(builder.keyPrefix + "handoff");
		this.replicasToAck = builder.replicasToAck;
		this.replicaTimeout = builder.replicaTimeout;
		this.commandTimeoutMillis = lettucePresent
				? LettuceCommands.timeoutMillis(builder.connectionFactory, DEFAULT_COMMAND_TIMEOUT_MILLIS)
				: DEFAULT_COMMAND_TIMEOUT_MILLIS;
		this.script = new RedisLeaseScript(this.commandTimeoutMillis);
		this.durability = new RedisDurabilityMonitor(this.connectionFactory, this.keyPrefix, builder.requireDurable,
				builder.durabilityCheckInterval);
		this.calls = new RedisCalls(builder.connectionFactory, this.durability::disturbed);
		call("start", (connection) -> {
			if (this.replicasToAck > 0 && connection instanceof RedisClusterConnection) {
				// WAIT must go to the primary that wrote the grant; not wired for
				// clusters.
				throw new LeaseHostException("replicasToAck is not supported on a Redis Cluster");
			}
			this.script.load(connection);
			this.durability.start(connection);
			return null;
		});
		try {
			this.wakeups = new RedisWakeups(this.connectionFactory, builder.keyPrefix + "handoff");
		}
		catch (RuntimeException ex) {
			throw (ex instanceof LeaseHostException) ? ex
					: new LeaseHostException("Could not subscribe to Redis for handoffs", ex);
		}
		this.durability.watch();
	}

	/**
	 * Start building a host on the given connection factory.
	 * @param connectionFactory the Redis connection factory, started
	 * @return a builder
	 */
	public static Builder builder(RedisConnectionFactory connectionFactory) {
		return new Builder(connectionFactory);
	}

	/**
	 * Return whether the server keeps every grant (across its restart, and under memory
	 * pressure), as read at the latest check: at start, on the schedule, and after every
	 * disturbance of the connection.
	 * @return the durability verdict and its reason
	 */
	public RedisDurability durability() {
		return this.durability.latest();
	}

	/**
	 * Return the prefix of every Redis key this host writes.
	 * @return the key prefix
	 */
	public String keyPrefix() {
		return this.keyPrefix;
	}

	@Override
	public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		checkArguments(key, holder, duration);
		this.durability.requireDurable();
		byte[] redisKey = redisKey(key);
		String wakeKey = new String(redisKey, StandardCharsets.US_ASCII);
		byte[] ticket = ticket();
		// Subscribed before asking: a handoff published after we are queued wakes us.
		Signal signal = this.wakeups.register(wakeKey);
		try {
			TakeAnswer answer;
			try {
				answer = RedisScriptAnswer
					.take(runOrGiveUp("take", redisKey, TAKE, holder.bytes(), micros(duration), ticket));
			}
			catch (RedisCalls.GaveUp ex) {
				// Interrupted before anything was sent: nothing stands for us.
				Thread.interrupted();
				throw new InterruptedException(ex.getMessage());
			}
			if (answer instanceof Granted granted) {
				return new Taken(confirm(redisKey, new Lease(key, holder, granted.instant()), null));
			}
			if (answer instanceof Queued queued) {
				return await(key, holder, duration, redisKey, ticket, signal, queued.toBound(),
						queued.standingRemaining());
			}
			throw new ReentrantTakeException(key, holder);
		}
		finally {
			this.wakeups.unregister(wakeKey, signal);
		}
	}

	private TakeResult await(LeaseKey key, LeaseHolder holder, Duration duration, byte[] redisKey, byte[] ticket,
			Signal signal, long toBound, long standing) throws InterruptedException {
		long halfDuration = Math.max(1, duration.toNanos() / 2000);
		while (true) {
			// Sleep to the earlier of the standing grant's remaining term and half our
			// duration, or to just past our bound; the server judges, not this clock.
			long asked = System.nanoTime();
			long sleep = Math.min(Math.min(standing, halfDuration), toBound + 1);
			try {
				signal.await(sleep);
			}
			catch (InterruptedException ex) {
				throw giveUp(redisKey, ticket, asked + toBound * 1000, ex);
			}
			long handed = signal.handedTo(new String(ticket, StandardCharsets.US_ASCII));
			if (handed >= 0) {
				// The release published that it handed the key to us: no need to ask.
				return new Taken(confirm(redisKey, new Lease(key, holder, RedisScriptAnswer.instant(handed)), ticket));
			}
			boolean atBound = (System.nanoTime() - asked) / 1000 > toBound;
			WaiterAnswer answer;
			try {
				answer = atBound ? settle(redisKey, ticket, false)
						: RedisScriptAnswer.waiter(runOrGiveUp("take", redisKey, ASK, ticket, NO, this.channel));
			}
			catch (RedisCalls.GaveUp ex) {
				throw giveUp(redisKey, ticket, asked + toBound * 1000, new InterruptedException(ex.getMessage()));
			}
			catch (LeaseHostException ex) {
				LeaseHostException failed = withdraw(redisKey, ticket, asked + toBound * 1000);
				if (failed != null) {
					ex.addSuppressed(failed);
				}
				throw ex;
			}
			if (answer instanceof Granted granted) {
				return new Taken(confirm(redisKey, new Lease(key, holder, granted.instant()), ticket));
			}
			if (answer instanceof Queued queued) {
				toBound = queued.toBound();
				standing = queued.standingRemaining();
				continue;
			}
			return new Unavailable();
		}
	}

	// "Withdraw me, or tell me I was granted": at the bound; or at an interrupt, where a
	// grant handed at that moment is given back.
	private WaiterAnswer settle(byte[] redisKey, byte[] ticket, boolean interrupted) {
		return RedisScriptAnswer.waiter(run("take", redisKey, SETTLE, ticket, interrupted ? YES : NO, this.channel));
	}

	// An interrupted waiter withdraws at once, a grant handed to it at that moment given
	// back, and throws InterruptedException (DESIGN §4). Only when Redis could not be
	// reached to withdraw it is its outcome unknown, and said so.
	private InterruptedException giveUp(byte[] redisKey, byte[] ticket, long boundNanos,
			InterruptedException interrupt) {
		LeaseHostException failed = withdraw(redisKey, ticket, boundNanos);
		Thread.interrupted();
		if (failed != null) {
			failed.addSuppressed(interrupt);
			throw failed;
		}
		return interrupt;
	}

	// A caller that gets no answer must not be handed the key later. The failure often
	// outlasts one call (a reconnecting client), so a failed withdrawal is tried again
	// while the waiter's bound has not passed: after it, no release can hand the waiter
	// the key. Answers the last failure, or null once withdrawn. A pending interrupt is
	// put aside so that the pauses pause.
	private @Nullable LeaseHostException withdraw(byte[] redisKey, byte[] ticket, long boundNanos) {
		boolean interrupted = Thread.interrupted();
		try {
			for (int attempt = 1;; attempt++) {
				try {
					settle(redisKey, ticket, true);
					return null;
				}
				catch (LeaseHostException ex) {
					if (attempt >= WITHDRAW_ATTEMPTS || System.nanoTime() - boundNanos > 0) {
						return ex;
					}
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(25L << attempt));
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		checkArguments(key, holder, duration);
		this.durability.requireDurable();
		byte[] redisKey = redisKey(key);
		TryTakeAnswer answer = RedisScriptAnswer
			.tryTake(run("try_take", redisKey, TRY, holder.bytes(), micros(duration)));
		if (answer instanceof Granted granted) {
			return new Taken(confirm(redisKey, new Lease(key, holder, granted.instant()), null));
		}
		if (answer instanceof RedisScriptAnswer.Held) {
			return new Held();
		}
		throw new ReentrantTakeException(key, holder);
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		checkKeyAndHolder(key, holder);
		return Optional
			.ofNullable(RedisScriptAnswer.remaining(run("remaining", redisKey(key), REMAINING, holder.bytes())));
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		checkKeyAndHolder(key, holder);
		byte[] redisKey = redisKey(key);
		ReleaseAnswer answer = RedisScriptAnswer
			.release(run("release", redisKey, RELEASE, holder.bytes(), this.channel));
		if (!(answer instanceof RedisScriptAnswer.Released released)) {
			return new NotHeld();
		}
		if (released.handedOn() != null) {
			// Handed on to a waiter: one of ours need not wait for the channel's message.
			this.wakeups.wake(new String(redisKey, StandardCharsets.US_ASCII), released.handedOn());
		}
		return new Released();
	}

	@Override
	public List<Lease> grants(int limit) {
		if (limit <= 0) {
			throw new IllegalArgumentException("'limit' must be positive, but was " + limit);
		}
		return call("grants", (connection) -> {
			List<Lease> grants = new ArrayList<>();
			ScanOptions options = ScanOptions.scanOptions().match(this.keyPrefix + "{*}").count(256).build();
			if (connection instanceof RedisClusterConnection cluster) {
				for (RedisClusterNode node : cluster.clusterGetNodes()) {
					if (node.isMaster() && grants.size() < limit) {
						try (Cursor<byte[]> keys = cluster.scan(node, options)) {
							collect(connection, keys, grants, limit);
						}
					}
				}
			}
			else {
				try (Cursor<byte[]> keys = connection.keyCommands().scan(options)) {
					collect(connection, keys, grants, limit);
				}
			}
			return grants;
		});
	}

	private void collect(RedisConnection connection, Cursor<byte[]> keys, List<Lease> grants, int limit) {
		while (keys.hasNext() && grants.size() < limit) {
			byte[] redisKey = keys.next();
			LeaseKey key = leaseKey(redisKey);
			if (key == null) {
				continue;
			}
			Standing standing = RedisScriptAnswer.grant(this.script.run(connection, redisKey, GRANT));
			if (standing != null) {
				grants.add(new Lease(key, LeaseHolder.of(standing.holder()), standing.instant()));
			}
		}
	}

	/**
	 * End the subscription this host holds. Grants stand: they end at release or at their
	 * instant only.
	 */
	@Override
	public void close() {
		this.durability.close();
		this.wakeups.close();
	}

	// With replicas-to-ack, confirm the grant with WAIT on the connection that wrote it
	// (for a handed grant: the settle that takes it up), and give it back when too few
	// replicas acknowledge, so that a failover cannot hand the key to a second holder.
	private Lease confirm(byte[] redisKey, Lease lease, byte @Nullable [] ticket) {
		if (this.durability.refuses()) {
			// The server was found not durable while this grant was made or handed on.
			release(lease.key(), lease.holder());
			throw this.durability.refusal();
		}
		if (this.replicasToAck == 0) {
			return lease;
		}
		Object acknowledged = call("wait", (connection) -> {
			if (ticket != null) {
				this.script.run(connection, redisKey, SETTLE, ticket, NO, this.channel);
			}
			long timeout = Math.max(1, this.replicaTimeout.toMillis());
			return (lettucePresent && LettuceCommands.handles(connection))
					? LettuceCommands.waitForReplicas(connection, this.replicasToAck, timeout,
							this.commandTimeoutMillis)
					: (Object) connection.execute("WAIT", ascii(Integer.toString(this.replicasToAck)),
							ascii(Long.toString(timeout)));
		});
		if (acknowledged instanceof Number number && number.longValue() >= this.replicasToAck) {
			return lease;
		}
		release(lease.key(), lease.holder());
		throw new LeaseHostException(
				"Only " + acknowledged + " of " + this.replicasToAck + " replicas acknowledged the grant of key '"
						+ lease.key() + "' within " + this.replicaTimeout + "; the grant was given back");
	}

	private List<Object> run(String operation, byte[] redisKey, byte[]... args) {
		return call(operation, (connection) -> this.script.run(connection, redisKey, args));
	}

	// A question a waiter may drop at an interrupt that comes before it is sent.
	private List<Object> runOrGiveUp(String operation, byte[] redisKey, byte[]... args) {
		return this.calls.call(operation, true, (connection) -> this.script.run(connection, redisKey, args));
	}

	private <T> T call(String operation, Function<RedisConnection, T> action) {
		return this.calls.call(operation, false, action);
	}

	// <prefix>{<base64url>}, written straight into one array: this runs on every call.
	private byte[] redisKey(LeaseKey key) {
		byte[] encoded = BASE64.encode(key.bytes());
		byte[] redisKey = new byte[this.keyPrefixBytes.length + encoded.length + 2];
		System.arraycopy(this.keyPrefixBytes, 0, redisKey, 0, this.keyPrefixBytes.length);
		redisKey[this.keyPrefixBytes.length] = '{';
		System.arraycopy(encoded, 0, redisKey, this.keyPrefixBytes.length + 1, encoded.length);
		redisKey[redisKey.length - 1] = '}';
		return redisKey;
	}

	private @Nullable LeaseKey leaseKey(byte[] redisKey) {
		String text = new String(redisKey, StandardCharsets.US_ASCII);
		if (!text.startsWith(this.keyPrefix + "{") || !text.endsWith("}")) {
			return null;
		}
		try {
			return LeaseKey
				.of(Base64.getUrlDecoder().decode(text.substring(this.keyPrefix.length() + 1, text.length() - 1)));
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private static byte[] ticket() {
		byte[] bytes = new byte[12];
		random.nextBytes(bytes);
		return ascii(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
	}

	private static byte[] micros(Duration duration) {
		return ascii(Long.toString(duration.toNanos() / 1000));
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

	private static void checkKeyAndHolder(LeaseKey key, LeaseHolder holder) {
		if (key == null) {
			throw new IllegalArgumentException("'key' must not be null");
		}
		if (holder == null) {
			throw new IllegalArgumentException("'holder' must not be null");
		}
	}

	private static void checkArguments(LeaseKey key, LeaseHolder holder, Duration duration) {
		checkKeyAndHolder(key, holder);
		LeaseDurations.require(duration, RESOLUTION, MAXIMUM);
	}

	static String validateKeyPrefix(String keyPrefix) {
		if (keyPrefix == null || keyPrefix.isEmpty() || keyPrefix.length() > KEY_PREFIX_MAXIMUM) {
			throw new IllegalArgumentException(
					"'keyPrefix' must be 1 to " + KEY_PREFIX_MAXIMUM + " characters, but was '" + keyPrefix + "'");
		}
		for (int i = 0; i < keyPrefix.length(); i++) {
			char c = keyPrefix.charAt(i);
			if (c <= ' ' || c > '~' || "{}*?[]\\".indexOf(c) >= 0) {
				throw new IllegalArgumentException("'keyPrefix' must be printable ASCII without spaces, braces,"
						+ " or the glob characters * ? [ ] \\, but was '" + keyPrefix + "'");
			}
		}
		return keyPrefix;
	}

	/**
	 * Builds a {@link RedisLeaseHost}.
	 */
	public static final class Builder {

		private final RedisConnectionFactory connectionFactory;

		private String keyPrefix = DEFAULT_KEY_PREFIX;

		private boolean requireDurable;

		private int replicasToAck;

		private Duration replicaTimeout = Duration.ofSeconds(1);

		private Duration durabilityCheckInterval = Duration.ofSeconds(10);

		private Builder(RedisConnectionFactory connectionFactory) {
			if (connectionFactory == null) {
				throw new IllegalArgumentException("'connectionFactory' must not be null");
			}
			this.connectionFactory = connectionFactory;
		}

		/**
		 * Set the prefix of every Redis key and of the handoff channel; printable ASCII
		 * without spaces, braces or glob characters. Defaults to
		 * {@value RedisLeaseHost#DEFAULT_KEY_PREFIX}.
		 * @param keyPrefix the prefix
		 * @return this builder
		 */
		public Builder keyPrefix(String keyPrefix) {
			this.keyPrefix = validateKeyPrefix(keyPrefix);
			return this;
		}

		/**
		 * Set whether a server that is not known to keep every grant fails the start,
		 * and, once started, whether takes are refused with {@link LeaseHostException}
		 * while the latest check does not find it durable.
		 * @param requireDurable whether durability is required
		 * @return this builder
		 */
		public Builder requireDurable(boolean requireDurable) {
			this.requireDurable = requireDurable;
			return this;
		}

		/**
		 * Confirm every grant with {@code WAIT replicas timeout} before answering
		 * {@link Taken}; a grant fewer replicas acknowledged is given back and the take
		 * fails with {@link LeaseHostException}. Single node and Sentinel only; a cluster
		 * connection fails the start. With Lettuce's shared connection, the {@code WAIT}
		 * holds that connection for up to the timeout.
		 * @param replicas the replicas that must acknowledge, 0 for none
		 * @param timeout the longest wait for them
		 * @return this builder
		 */
		public Builder replicasToAck(int replicas, Duration timeout) {
			if (replicas < 0) {
				throw new IllegalArgumentException("'replicas' must not be negative, but was " + replicas);
			}
			if (timeout == null || timeout.isNegative() || timeout.isZero()) {
				throw new IllegalArgumentException("'timeout' must be positive, but was " + timeout);
			}
			this.replicasToAck = replicas;
			this.replicaTimeout = timeout;
			return this;
		}

		/**
		 * Set how often the server's durability is read again while the host runs;
		 * {@link Duration#ZERO} for no schedule. Defaults to 10 seconds. Reconnections
		 * and failed calls are checked at once, whatever the schedule; the schedule finds
		 * what they cannot show, such as a {@code CONFIG SET} on the running server. A
		 * check is five small commands ({@code INFO server} and four {@code CONFIG GET}).
		 * @param interval the time between two checks
		 * @return this builder
		 */
		public Builder durabilityCheckInterval(Duration interval) {
			if (interval == null || interval.isNegative()) {
				throw new IllegalArgumentException("'interval' must not be negative, but was " + interval);
			}
			this.durabilityCheckInterval = interval;
			return this;
		}

		/**
		 * Build the host: load its script, check the server's durability and subscribe.
		 * @return the host, to be closed when done
		 * @throws LeaseHostException if Redis cannot be reached, or durability is
		 * required and not known
		 */
		public RedisLeaseHost build() {
			return new RedisLeaseHost(this);
		}

	}

}
