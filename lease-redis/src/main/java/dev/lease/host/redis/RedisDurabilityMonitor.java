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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHostException;
import dev.lease.host.HostThreads;
import dev.lease.host.redis.RedisDurability.Status;
import dev.lease.host.redis.RedisDurabilityCheck.Reading;

/**
 * The latest answer to "does this Redis keep every grant?", kept current while the host
 * runs. The server can change under a running host: an operator's {@code CONFIG SET}, a
 * restart with another configuration, a failover to a differently configured replica. So
 * the check runs at start, on a schedule, and again after every disturbance of the
 * connection: any failed call of the host, and, with Lettuce, every disconnection and
 * (re)connection its event bus reports (Lettuce reconnects and replays commands without
 * telling its caller; Jedis's pooled connections fail the first call after a restart,
 * which the host reports here). Each check also reads the server's {@code run_id}, so the
 * log says when the server answering is not the one read before.
 * <p>
 * With {@code requireDurable}, a take is refused while the latest answer is not
 * {@code DURABLE} (the same rule the start applies), and after a disturbance the next
 * take checks again before it is let through, so a restart without AOF is not answered
 * {@code Taken} on the strength of an answer about the server before it. A check that
 * cannot reach the server changes no answer: the operation that needs the server fails on
 * its own.
 * <p>
 * A server that answers but does not say (managed services rename {@code CONFIG} away or
 * deny it) reads {@code UNKNOWN}, which {@code requireDurable} refuses, unless
 * {@code assumeDurable} states that it keeps every grant: then it reads {@code DURABLE},
 * its reason saying that this is assumed, not read, and the start logs a warning naming
 * the setting. A server that answers is judged by its answer, whatever is assumed.
 *
 * @author Lease contributors
 */
final class RedisDurabilityMonitor implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(RedisLeaseHost.class);

	private static final String ASSUME_DURABLE = "lease.redis.assume-durable";

	private static final String ASSUMED = "assumed durable (" + ASSUME_DURABLE + "=true), not read: ";

	private static final String FOR_LEASES = "appendonly yes with appendfsync always or everysec, and"
			+ " maxmemory-policy noeviction";

	private final RedisConnectionFactory connectionFactory;

	private final String keyPrefix;

	private final boolean requireDurable;

	private final boolean assumeDurable;

	private final ReentrantLock checking = new ReentrantLock();

	// Counts disturbances: a check marks the answer verified only if none came while it
	// read, since it may have read the server from before.
	private final AtomicLong disturbances = new AtomicLong();

	private final AtomicBoolean pending = new AtomicBoolean();

	private volatile RedisDurability latest = new RedisDurability(Status.UNKNOWN, "not checked yet");

	private volatile @Nullable String runId;

	private volatile boolean verified;

	private volatile boolean checked;

	private final HostThreads threads;

	private volatile @Nullable ScheduledFuture<?> schedule;

	// Ends the watch of Lettuce's connection events.
	private volatile @Nullable Runnable reconnections;

	RedisDurabilityMonitor(RedisConnectionFactory connectionFactory, String keyPrefix, boolean requireDurable,
			boolean assumeDurable, HostThreads threads) {
		this.threads = threads;
		this.connectionFactory = connectionFactory;
		this.keyPrefix = keyPrefix;
		this.requireDurable = requireDurable;
		this.assumeDurable = assumeDurable;
	}

	// The host's threads, which every part of it uses.
	HostThreads threads() {
		return this.threads;
	}

	RedisDurability latest() {
		return this.latest;
	}

	// The first check, on the host's first connection: with requireDurable, anything but
	// DURABLE fails the start.
	void start(RedisConnection connection) {
		Reading reading = judged(RedisDurabilityCheck.read(connection));
		RedisDurability durability = reading.durability();
		if (this.requireDurable && durability.status() != Status.DURABLE) {
			throw new RedisDurabilityRequiredException(required(durability), durability, true, null);
		}
		apply(reading, this.disturbances.get());
	}

	// The start could not reach the server: nothing is known of it until a check can
	// read it (on the schedule, or at the host's next call). With requireDurable the
	// start needs an answer, so it fails here.
	void unreachable(RuntimeException failure) {
		this.verified = false;
		this.latest = new RedisDurability(Status.UNKNOWN,
				"Redis could not be reached: " + RedisCalls.rootMessage(failure));
		if (this.requireDurable) {
			throw new RedisDurabilityRequiredException("Redis is required to be durable (lease.redis.require-durable),"
					+ " but could not be reached at start to read whether it keeps every grant: "
					+ RedisCalls.rootMessage(failure), this.latest, false, failure);
		}
		logger.warn("Redis lease host (key prefix '" + this.keyPrefix + "'): Redis could not be reached at start ("
				+ RedisCalls.rootMessage(failure) + "). The host starts, every operation fails with LeaseHostException"
				+ " until Redis answers, and then works without a restart");
	}

	// Once the host is built: the schedule, and Lettuce's connection events.
	void watch(Duration interval) {
		if (!interval.isZero()) {
			long millis = Math.max(1, interval.toMillis());
			this.schedule = this.threads.scheduleWithFixedDelay(this::recheck, millis, millis, TimeUnit.MILLISECONDS);
		}
		if (RedisLeaseStore.lettucePresent && LettuceReconnections.handles(this.connectionFactory)) {
			this.reconnections = LettuceReconnections.watch(this.connectionFactory, this::disturbed);
		}
	}

	// A call failed, or the connection dropped or was made again: the answer may be
	// about a server that is no longer there. Never throws.
	void disturbed() {
		this.disturbances.incrementAndGet();
		this.verified = false;
		if (this.pending.compareAndSet(false, true)) {
			try {
				this.threads.schedule(() -> {
					this.pending.set(false);
					recheck();
				}, 0, TimeUnit.MILLISECONDS);
			}
			catch (RejectedExecutionException ex) {
				this.pending.set(false);
			}
		}
	}

	// Before a take: with requireDurable, refuse unless the server is known durable;
	// after a disturbance, read it again first.
	void requireDurable() {
		if (!this.requireDurable) {
			return;
		}
		if (!this.verified) {
			try {
				check(true);
			}
			catch (RuntimeException ex) {
				throw new LeaseHostException("Redis is required to be durable (lease.redis.require-durable), and"
						+ " its durability could not be read again after a connection failure; nothing was taken", ex);
			}
		}
		if (refuses()) {
			throw refusal();
		}
	}

	// Whether a take must read the server's durability again before it is let through: a
	// round trip that blocks, which a non-blocking take leaves to a thread.
	boolean checkDue() {
		return this.requireDurable && !this.verified;
	}

	// Whether a grant answered now must be given back.
	boolean refuses() {
		return this.requireDurable && this.latest.status() != Status.DURABLE;
	}

	LeaseHostException refusal() {
		return new LeaseHostException(required(this.latest) + "; nothing was taken");
	}

	private static String required(RedisDurability durability) {
		return "Redis is required to be durable (lease.redis.require-durable), but is " + switch (durability.status()) {
			case DURABLE -> "durable";
			case NOT_DURABLE -> "not durable";
			case UNKNOWN -> "of unknown durability";
		} + ": " + durability.reason();
	}

	private void recheck() {
		try {
			check(false);
		}
		catch (RuntimeException ex) {
			// Unreachable: the calls that need the server fail on their own, and the
			// next disturbance or tick checks again.
			this.verified = false;
			if (logger.isDebugEnabled()) {
				logger.debug("Redis lease host (key prefix '" + this.keyPrefix + "'): durability check failed", ex);
			}
		}
	}

	private void check(boolean onlyIfUnverified) {
		this.checking.lock();
		try {
			if (onlyIfUnverified && this.verified) {
				return;
			}
			long seen = this.disturbances.get();
			try (RedisConnection connection = this.connectionFactory.getConnection()) {
				apply(judged(RedisDurabilityCheck.read(connection)), seen);
			}
		}
		finally {
			this.checking.unlock();
		}
	}

	// What the server did not say, the user may state (assumeDurable); a server that
	// says is judged by what it says.
	private Reading judged(Reading reading) {
		RedisDurability read = reading.durability();
		if (read.status() != Status.UNKNOWN) {
			return reading;
		}
		if (this.assumeDurable) {
			return new Reading(reading.runId(), new RedisDurability(Status.DURABLE, ASSUMED + read.reason()
					+ "; the server's own configuration must keep every grant (" + FOR_LEASES + ")"));
		}
		return new Reading(reading.runId(), new RedisDurability(Status.UNKNOWN, read.reason()
				+ ", so whether Redis keeps grants across a restart and never evicts them is unknown. Configure it"
				+ " for leases (" + FOR_LEASES + ") and, where its configuration cannot be read (a managed service),"
				+ " state that it keeps every grant with " + ASSUME_DURABLE + "=true"));
	}

	private static boolean assumed(RedisDurability durability) {
		return durability.status() == Status.DURABLE && durability.reason().startsWith(ASSUMED);
	}

	private void apply(Reading reading, long seen) {
		RedisDurability previous = this.latest;
		String previousRunId = this.runId;
		RedisDurability durability = reading.durability();
		this.latest = durability;
		this.runId = reading.runId();
		if (this.disturbances.get() == seen) {
			this.verified = true;
		}
		else {
			disturbed();
		}
		boolean first = !this.checked;
		this.checked = true;
		boolean serverChanged = previousRunId != null && reading.runId() != null
				&& !previousRunId.equals(reading.runId());
		if (!first && !serverChanged && previous.equals(durability)) {
			return;
		}
		StringBuilder line = new StringBuilder("Redis lease host (key prefix '").append(this.keyPrefix).append("'): ");
		if (serverChanged) {
			line.append("the server restarted or failed over (run_id " + previousRunId + " -> " + reading.runId() + ")"
					+ ((previous.status() != Status.DURABLE) ? ", and grants taken before may be lost; " : "; "));
		}
		line.append(switch (durability.status()) {
			case DURABLE ->
				assumed(durability) ? "the server is taken to keep every grant: " : "the server keeps every grant: ";
			case NOT_DURABLE -> "the server can lose grants: ";
			case UNKNOWN -> "whether the server keeps every grant is unknown: ";
		}).append(durability.reason());
		if (first && this.assumeDurable && !assumed(durability)) {
			line.append(" (" + ASSUME_DURABLE + " is set, but the server says, and what it says decides)");
		}
		if (durability.status() == Status.DURABLE && !assumed(durability)) {
			logger.info(line);
		}
		else {
			// An assumption is a warning too: if it is wrong, grants are lost unreported.
			if (this.requireDurable && durability.status() != Status.DURABLE) {
				line.append(". Takes are refused until it is durable (lease.redis.require-durable)");
			}
			logger.warn(line);
		}
	}

	@Override
	public void close() {
		ScheduledFuture<?> schedule = this.schedule;
		if (schedule != null) {
			schedule.cancel(true);
		}
		Runnable reconnections = this.reconnections;
		if (reconnections != null) {
			reconnections.run();
		}
	}

}
