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
import java.util.Arrays;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHostException;

/**
 * Replicas-to-ack: how many replicas acknowledged writes, asked so that the answer is
 * about the server that holds them. {@code WAIT} counts the replicas that have the writes
 * its own client session made, on the server it reaches. A client that sends the commands
 * in flight again after a reconnection (Lettuce does, to the server Sentinel names after
 * a failover) would ask another server about its own writes, which are none, and count
 * replicas that never had the grant. So the writes and the {@code WAIT} run between two
 * readings of the session ({@code CLIENT INFO}: its id and the server's address); when
 * they differ, nothing is acknowledged. A write of no consequence ({@code PUBLISH} on a
 * channel nobody hears) just before {@code WAIT} makes it cover everything the server had
 * written, whichever connection wrote the grant.
 *
 * @author Lease contributors
 */
final class ReplicaAcknowledgements {

	private static final Log logger = LogFactory.getLog(RedisLeaseHost.class);

	private final int replicas;

	private final Duration timeout;

	private final long commandTimeoutMillis;

	private final byte[] channel;

	// The connection acknowledgements go out on through Lettuce; null when none are asked
	// or Lettuce is absent.
	private final @Nullable AcknowledgementConnection lettuceConnection;

	ReplicaAcknowledgements(RedisConnectionFactory connectionFactory, int replicas, Duration timeout,
			long commandTimeoutMillis, String keyPrefix) {
		this.lettuceConnection = (replicas > 0 && RedisLeaseStore.lettucePresent)
				? new AcknowledgementConnection(connectionFactory) : null;
		if (this.lettuceConnection != null
				&& timeout.toMillis() >= LettuceCommands.timeoutMillis(connectionFactory, Long.MAX_VALUE)) {
			// Lettuce gives up a command that outlasts its timeout, WAIT included.
			logger.warn("Redis lease host (key prefix '" + keyPrefix + "'): replicaTimeout " + timeout
					+ " (lease.redis.replica-timeout) is not shorter than the Redis command timeout of "
					+ LettuceCommands.timeoutMillis(connectionFactory, 0) + " ms (spring.data.redis.timeout): Lettuce"
					+ " gives up a WAIT that outlasts it, so a grant whose replicas are slower fails then; set the"
					+ " replica timeout below the command timeout");
		}
		this.replicas = replicas;
		this.timeout = timeout;
		this.commandTimeoutMillis = commandTimeoutMillis;
		this.channel = (keyPrefix + "acknowledged").getBytes(StandardCharsets.US_ASCII);
	}

	// Close the connection acknowledgements went out on, if any.
	void close() {
		if (this.lettuceConnection != null) {
			this.lettuceConnection.close();
		}
	}

	boolean asked() {
		return this.replicas > 0;
	}

	/**
	 * Run the writes, then {@code WAIT}, in one session of one server: on a cluster
	 * through Lettuce, the master serving the key's slot
	 * ({@link LettuceClusterAcknowledgements}).
	 * @param connection the connection to run them on
	 * @param redisKey the key the writes are about
	 * @param writes the writes, on the connection given them; answer false when they
	 * found nothing to acknowledge
	 * @return how many replicas acknowledged the writes: 0 when the session changed
	 */
	long acknowledged(RedisConnection connection, byte[] redisKey, Predicate<RedisConnection> writes) {
		// Through Lettuce, never on the native connection the factory shares.
		AcknowledgementConnection own = this.lettuceConnection;
		RedisConnection on = (own != null && LettuceCommands.handles(connection)) ? own.get() : connection;
		if (RedisLeaseStore.lettucePresent && LettuceClusterAcknowledgements.handles(on)) {
			return LettuceClusterAcknowledgements.onMasterOf(on, redisKey, this.commandTimeoutMillis,
					(node) -> acknowledged(node, writes,
							() -> LettuceClusterAcknowledgements.cover(node, redisKey, this.commandTimeoutMillis)));
		}
		return acknowledged(on, writes, () -> {
			if (RedisLeaseStore.lettucePresent && LettuceCommands.handles(on)) {
				LettuceCommands.publish(on, this.channel, this.commandTimeoutMillis);
			}
			else {
				on.execute("PUBLISH", this.channel, new byte[0]);
			}
			return true;
		});
	}

	// covered: the write that makes WAIT cover all the server wrote; false when it
	// cannot.
	private long acknowledged(RedisConnection connection, Predicate<RedisConnection> writes, BooleanSupplier covered) {
		String session = session(connection);
		if (!writes.test(connection) || !covered.getAsBoolean()) {
			return 0;
		}
		Object counted = waitForReplicas(connection, this.replicas, this.timeout);
		if (!session.equals(session(connection))) {
			return 0;
		}
		return (counted instanceof Number number) ? number.longValue() : 0;
	}

	/**
	 * At start, with replicas asked: send once each command an acknowledgement sends,
	 * with nothing to wait for ({@code WAIT 0}), so that a server that refuses one fails
	 * the start instead of every grant.
	 * @param connection a connection to the server
	 * @throws RedisReplicasToAckUnsupportedException naming the command refused
	 */
	void requireCommands(RedisConnection connection) {
		if (!asked()) {
			return;
		}
		if (connection instanceof RedisClusterConnection
				&& !(RedisLeaseStore.lettucePresent && LettuceClusterAcknowledgements.handles(connection))) {
			// Jedis lends a node's connection from a pool per command: WAIT would not
			// follow the writes on their connection.
			throw new RedisReplicasToAckUnsupportedException("replicasToAck (lease.redis.replicas-to-ack) is not"
					+ " supported on a Redis Cluster through Jedis, whose WAIT may not go out on the connection"
					+ " that wrote the grant: use Lettuce", null);
		}
		require(connection, "CLIENT INFO", () -> session(connection));
		require(connection, "WAIT", () -> waitForReplicas(connection, 0, Duration.ofMillis(1)));
	}

	private void require(RedisConnection connection, String command, Runnable call) {
		try {
			call.run();
		}
		catch (RuntimeException ex) {
			if (ex instanceof LeaseHostException) {
				throw ex;
			}
			RedisDurabilityCheck.requireRefused(connection, ex);
			// The cause is the server's own error, not Spring's wrapper: a
			// DataAccessException would read as Redis unreachable (RedisLeaseStore).
			throw new RedisReplicasToAckUnsupportedException("Replicas to acknowledge each grant (replicasToAck "
					+ this.replicas + ", lease.redis.replicas-to-ack) need " + command + ", which the server refuses ("
					+ RedisCalls.rootMessage(ex) + "): it is renamed away or denied by an ACL, as managed services do,"
					+ " so no grant could be confirmed", NestedExceptionUtils.getMostSpecificCause(ex));
		}
	}

	// Why what was written is not confirmed, or null when enough replicas acknowledged
	// it.
	@Nullable String shortfall(long acknowledged, String what) {
		return (acknowledged >= this.replicas) ? null : "Only " + acknowledged + " of " + this.replicas
				+ " replicas acknowledged " + what + " within " + this.timeout;
	}

	private @Nullable Object waitForReplicas(RedisConnection connection, int replicas, Duration timeout) {
		long millis = Math.max(1, timeout.toMillis());
		return (RedisLeaseStore.lettucePresent && LettuceCommands.handles(connection))
				? LettuceCommands.waitForReplicas(connection, replicas, millis, this.commandTimeoutMillis)
				: connection.execute("WAIT", RedisLeaseStore.ascii(Integer.toString(replicas)),
						RedisLeaseStore.ascii(Long.toString(millis)));
	}

	// The client's id and the server's address: a new connection, to this server or
	// another, reads differently.
	private String session(RedisConnection connection) {
		Object info = (RedisLeaseStore.lettucePresent && LettuceCommands.handles(connection))
				? LettuceCommands.clientInfo(connection, this.commandTimeoutMillis)
				: connection.execute("CLIENT", RedisLeaseStore.ascii("INFO"));
		String text = (info instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(info);
		return Arrays.stream(text.trim().split(" "))
			.filter((field) -> field.startsWith("id=") || field.startsWith("laddr="))
			.collect(Collectors.joining(" "));
	}

	// A grant that could not be confirmed, given back: its caller is told it failed, and
	// no grant stands for it.
	static LeaseHostException givenBack(String why, @Nullable Throwable cause, Runnable giveBack) {
		try {
			giveBack.run();
			return new LeaseHostException(why + "; the grant was given back", cause);
		}
		catch (LeaseHostException ex) {
			return new LeaseHostException(
					why + "; the grant could not be given back (" + ex.getMessage() + ") and ends at its instant",
					cause);
		}
	}

}
