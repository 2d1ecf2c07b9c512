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

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.util.Assert;

import dev.lease.AsyncLeaseHost;
import dev.lease.GrantsPage;
import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.QueuedTakes;
import dev.lease.ReentrantTakeException;
import dev.lease.ReleaseResult;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.host.HostArguments;
import dev.lease.host.HostBuilder;
import dev.lease.host.LazyStart;
import dev.lease.host.ProtocolRecordingHost;
import dev.lease.host.StoreProtocolReading;
import dev.lease.host.Wakeups;
import dev.lease.host.redis.RedisScriptAnswer.Granted;
import dev.lease.host.redis.RedisScriptAnswer.Standing;
import dev.lease.host.redis.RedisScriptAnswer.TryTakeAnswer;

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
 * one channel, {@code <prefix>handoff}, to which each host holds one subscription, or, on
 * a Redis 7 cluster through Lettuce, on a channel of the key's slot, to which a host
 * subscribes while it has waiters in the slot ({@link RedisHandoffChannels}); waiters
 * wait through the host kit's {@link dev.lease.host.WaiterMachine}. This class is the
 * host's face; its store ({@link RedisLeaseStore}: the script calls, the key codec, the
 * durability gate and replica confirmation) and its waiting ({@link RedisLeaseWaiting})
 * sit beside it. Create one with {@link #builder(RedisConnectionFactory)};
 * {@link #close()} ends its subscription.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class RedisLeaseHost implements LeaseHost, ProtocolRecordingHost, AutoCloseable {

	/** The default prefix of every Redis key and of the channel. */
	public static final String DEFAULT_KEY_PREFIX = "lease:";

	static final HostArguments ARGUMENTS = HostArguments.of(Duration.ofNanos(1000), HostArguments.DEFAULT_MAXIMUM);

	private final String keyPrefix;

	private final RedisDurabilityMonitor durability;

	private final RedisLeaseStore store;

	// This JVM's waiters, by Redis key and ticket.
	private final Wakeups<String, String> wakeups = new Wakeups<>();

	private final LazyStart<RedisLeaseParts> parts;

	private final AsyncLeaseHost async;

	private RedisLeaseHost(Builder builder) {
		this.keyPrefix = builder.keyPrefix;
		this.durability = new RedisDurabilityMonitor(builder.connectionFactory, this.keyPrefix, builder.requireDurable,
				builder.assumeDurable, builder.threads("redis"));
		this.store = new RedisLeaseStore(builder.connectionFactory, this.keyPrefix, builder.replicasToAck,
				builder.replicaTimeout, this.durability,
				(redisKey, handed) -> this.wakeups.wake(redisKey, List.of(handed)));
		this.parts = RedisLeaseParts.lazy(this.store, this.durability, this.wakeups);
		this.async = LettuceAsyncLeaseHost.orOnThreads(this, builder.replicasToAck, this.store, this.wakeups,
				this.durability.threads());
		try {
			start();
		}
		catch (LeaseHostException ex) {
			// A server that answered and refused (not durable where that is required, a
			// setting it cannot serve) fails the build. One that could not be reached is
			// read later: the host is built, and its calls fail until Redis answers.
			if (!RedisLeaseStore.unreachable(ex)) {
				close();
				throw ex;
			}
			this.durability.unreachable(ex);
		}
		this.durability.watch(builder.durabilityCheckInterval);
	}

	private RedisLeaseParts start() {
		return this.parts.get();
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
	 * Read the protocol record of this host's key prefix, {@code <prefix>protocol}: the
	 * protocol the newest release started on it speaks, beside this instance's.
	 * @return the reading
	 * @throws LeaseHostException if Redis cannot be reached
	 */
	@Override
	public StoreProtocolReading protocol() {
		return this.store.protocol();
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
		return beforeTake(key, holder, duration).waiting().take(key, holder, duration);
	}

	// What a take checks before it asks anything, blocking or not.
	RedisLeaseParts beforeTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		ARGUMENTS.requireTake(key, holder, duration);
		RedisLeaseParts started = start();
		this.durability.requireDurable();
		return started;
	}

	// Whether a non-blocking question can be sent at once: the host has started and, for
	// a take, no durability check is due first. Else the question goes to a thread.
	boolean readyWithoutBlocking(boolean take) {
		return this.parts.isStarted() && !(take && this.durability.checkDue());
	}

	// A waiting take holds no thread through Lettuce: see LettuceAsyncLeaseHost.
	@Override
	public AsyncLeaseHost async() {
		return this.async;
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		beforeTake(key, holder, duration);
		byte[] redisKey = this.store.redisKey(key);
		TryTakeAnswer answer = this.store.tryTake(redisKey, holder, duration);
		if (answer instanceof Granted granted) {
			return new Taken(this.store.confirm(redisKey, new Lease(key, holder, granted.instant()), null));
		}
		if (answer instanceof RedisScriptAnswer.Refused) {
			return new Held();
		}
		throw new ReentrantTakeException(key, holder);
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		HostArguments.requireKeyAndHolder(key, holder);
		start();
		return this.store.remaining(this.store.redisKey(key), holder);
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		HostArguments.requireKeyAndHolder(key, holder);
		start();
		return this.store.release(this.store.redisKey(key), holder) ? new Released() : new NotHeld();
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * A page is one {@code SCAN} step with {@code MATCH} on the key prefix, its
	 * {@code COUNT} the limit (at most 1,000), then the script's read-only question for
	 * each key found and one {@code TIME}, sent together: its cost follows the page. The
	 * cursor carries {@code SCAN}'s, so a key is listed again in a pass only if Redis
	 * shrinks its key table during the pass. On a Redis Cluster, where Spring's
	 * {@code SCAN} of a node cannot start from a cursor, a page reads its node's whole
	 * {@code SCAN} and lists the first keys after the cursor's in key order: a key is
	 * listed at most once in a pass, and a page costs its node's keys.
	 */
	@Override
	public GrantsPage grants(@Nullable String cursor, int limit) {
		HostArguments.requireLimit(limit);
		start();
		return this.store.grants(RedisGrantsCursor.parse(cursor), limit);
	}

	@Override
	public Optional<Lease> grant(LeaseKey key) {
		HostArguments.requireKey(key);
		start();
		return this.store.standing(key).map((standing) -> standing.lease(key));
	}

	@Override
	public Optional<Instant> grantedAt(Lease grant) {
		HostArguments.requireKey(grant.key());
		start();
		return this.store.standing(grant.key()).filter((standing) -> standing.is(grant)).map(Standing::start);
	}

	@Override
	public Optional<QueuedTakes> waiting(LeaseKey key) {
		HostArguments.requireKey(key);
		start();
		return Optional.of(this.store.waiting(key));
	}

	/**
	 * End the subscription this host holds and stop every thread it started (a given
	 * executor or scheduler is left running). Grants stand: they end at release or at
	 * their instant only.
	 */
	@Override
	public void close() {
		this.durability.close();
		if (this.async instanceof LettuceAsyncLeaseHost lettuce) {
			lettuce.close();
		}
		this.parts.close();
		this.store.close();
		this.durability.threads().close();
	}

	/**
	 * Builds a {@link RedisLeaseHost}.
	 */
	public static final class Builder extends HostBuilder<Builder> {

		private final RedisConnectionFactory connectionFactory;

		private String keyPrefix = DEFAULT_KEY_PREFIX;

		private boolean requireDurable;

		private boolean assumeDurable;

		private int replicasToAck;

		private Duration replicaTimeout = Duration.ofSeconds(1);

		private Duration durabilityCheckInterval = Duration.ofSeconds(10);

		private Builder(RedisConnectionFactory connectionFactory) {
			Assert.notNull(connectionFactory, "'connectionFactory' must not be null");
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
			this.keyPrefix = RedisKeyCodec.validateKeyPrefix(keyPrefix);
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
		 * State that the server keeps every grant where it does not say: a server that
		 * refuses {@code CONFIG} (renamed away or denied by an ACL, as managed services
		 * do) then reads {@code DURABLE}, its reason saying that this is assumed and not
		 * read, and {@link #requireDurable(boolean) requireDurable} lets its takes
		 * through. The start logs a warning naming the assumption. A server that answers
		 * {@code CONFIG GET} is judged by its answer whatever this says. Set it only for
		 * a service configured to keep every grant (its persistence on, no eviction): if
		 * it is not, grants are lost unreported.
		 * @param assumeDurable whether to take the server as durable where it does not
		 * say
		 * @return this builder
		 */
		public Builder assumeDurable(boolean assumeDurable) {
			this.assumeDurable = assumeDurable;
			return this;
		}

		/**
		 * Confirm every grant with {@code WAIT replicas timeout} before answering
		 * {@link Taken}; a grant fewer replicas acknowledged is given back and the take
		 * fails with {@link LeaseHostException}. On a cluster, Lettuce only; a Jedis
		 * cluster connection, or a server that refuses {@code WAIT} or
		 * {@code CLIENT INFO}, fails the start with
		 * {@link RedisReplicasToAckUnsupportedException}. With Lettuce's shared
		 * connection, the {@code WAIT} holds that connection for up to the timeout.
		 * @param replicas the replicas that must acknowledge, 0 for none
		 * @param timeout the longest wait for them
		 * @return this builder
		 */
		public Builder replicasToAck(int replicas, Duration timeout) {
			Assert.isTrue(replicas >= 0, () -> "'replicas' must not be negative, but was " + replicas);
			Assert.isTrue(timeout != null && !timeout.isNegative() && !timeout.isZero(),
					() -> "'timeout' must be positive, but was " + timeout);
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
			Assert.isTrue(interval != null && !interval.isNegative(),
					() -> "'interval' must not be negative, but was " + interval);
			this.durabilityCheckInterval = interval;
			return this;
		}

		/**
		 * Build the host: load its script, check the server's durability and subscribe.
		 * When Redis cannot be reached, the host is built all the same: its durability
		 * reads {@code UNKNOWN} with the reason, every call fails with
		 * {@link LeaseHostException} until Redis answers, and the first call that reaches
		 * it completes the start.
		 * @return the host, to be closed when done
		 * @throws RedisDurabilityRequiredException if durability is required and the
		 * server is not durable, does not say, or cannot be reached
		 * @throws RedisReplicasToAckUnsupportedException if replicas are to acknowledge
		 * grants and the server cannot confirm them: a cluster through Jedis, or
		 * {@code WAIT} or {@code CLIENT INFO} refused
		 * @throws LeaseHostException if the server answers and refuses a setting
		 */
		public RedisLeaseHost build() {
			return new RedisLeaseHost(this);
		}

	}

}
