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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceClusterConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionProvider;
import org.springframework.data.redis.util.ByteUtils;

import dev.lease.LeaseHostException;

/**
 * Replicas-to-ack on a Redis Cluster through Lettuce. {@code WAIT} counts the replicas of
 * the node its connection reaches that have that connection's writes, and a cluster
 * connection sends a keyless command to any node. So the script, the write {@code WAIT}
 * is to cover and the {@code WAIT} go out on one connection: Lettuce's connection to the
 * master serving the key's slot, which does not follow redirects. The write cannot be a
 * {@code PUBLISH}, as on one server: a cluster sends it over its bus, not to the
 * replicas. It is a key of the slot, {@code <key>:a}, set and deleted by one script, so
 * that nobody ever reads it. The master is asked first whether it serves the key: one
 * that answers {@code MOVED} names the master the client's topology did not know yet
 * (after a failover), and the calls go there. The slot moving after the script ran
 * ({@code MOVED} or {@code ASK} on the covering write) leaves the replicas' count
 * unknown: nothing is acknowledged. Loaded only when Lettuce is on the class path.
 *
 * @author Lease contributors
 */
final class LettuceClusterAcknowledgements {

	// Sets and deletes the key, replicated as one transaction; a value someone else wrote
	// there is left alone, and the confirmation fails naming it.
	private static final byte[] COVER = """
			if redis.call('EXISTS', KEYS[1]) == 1 then
			  return redis.error_reply('ERR ' .. KEYS[1] .. ' holds a value the lease host did not write')
			end
			redis.call('SET', KEYS[1], '1')
			redis.call('DEL', KEYS[1])
			return 1
			""".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] SUFFIX = ":a".getBytes(StandardCharsets.US_ASCII);

	// A node's connection is shared, as the cluster's is: it lends no connection of its
	// own (which only transactions and pipelines would ask for).
	private static final LettuceConnectionProvider NO_DEDICATED_CONNECTION = new LettuceConnectionProvider() {

		@Override
		public <T extends StatefulConnection<?, ?>> CompletionStage<T> getConnectionAsync(Class<T> type) {
			return CompletableFuture
				.failedFuture(new IllegalStateException("A cluster node's connection lends no other"));
		}

	};

	private LettuceClusterAcknowledgements() {
	}

	static boolean handles(RedisConnection connection) {
		return connection instanceof LettuceClusterConnection;
	}

	/**
	 * Run the action on the connection to the master serving the key's slot.
	 * @param connection a cluster connection
	 * @param redisKey the key whose slot's master is asked
	 * @param timeoutMillis the longest wait for a connection to that master
	 * @param action what to send there
	 * @param <T> the action's answer
	 * @return the action's answer
	 */
	static <T> T onMasterOf(RedisConnection connection, byte[] redisKey, long timeoutMillis,
			Function<RedisConnection, T> action) {
		StatefulRedisClusterConnection<byte[], byte[]> cluster = cluster(connection);
		RedisClusterNode master = cluster.getPartitions().getMasterBySlot(RedisHandoffChannels.slot(redisKey));
		if (master == null) {
			throw new LeaseHostException("No master serves the slot of Redis key '"
					+ new String(redisKey, StandardCharsets.US_ASCII) + "' in the client's view of the cluster");
		}
		StatefulRedisConnection<byte[], byte[]> node = node(cluster, master.getUri().getHost(),
				master.getUri().getPort(), timeoutMillis);
		try {
			// Asked first, so that a topology the client has not read yet (after a
			// failover) costs one redirection, not the window in which a script refused
			// with MOVED is asked again (RedisMigrations).
			LettuceCommands.await(node.async().exists(redisKey), timeoutMillis);
		}
		catch (RuntimeException ex) {
			String[] moved = redirect(ex, "MOVED ");
			if (moved != null) {
				String address = moved[moved.length - 1];
				int colon = address.lastIndexOf(':');
				node = node(cluster, address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)),
						timeoutMillis);
			}
			else if (!RedisMigrations.isMigrating(ex)) {
				throw ex;
			}
			// else the slot is moving (ASK, TRYAGAIN): the calls ask again as anywhere
		}
		try (RedisConnection onNode = new LettuceConnection(node, NO_DEDICATED_CONNECTION, timeoutMillis, 0)) {
			return action.apply(onNode);
		}
	}

	/**
	 * On a node's connection: the write that makes {@code WAIT} cover everything the node
	 * wrote before it, the key's own state untouched.
	 * @param node the connection to the master serving the key's slot
	 * @param redisKey the lease's key
	 * @param timeoutMillis the longest wait for the answer
	 * @return false when the slot has moved, so that the node's replicas may not be the
	 * key's
	 */
	static boolean cover(RedisConnection node, byte[] redisKey, long timeoutMillis) {
		byte[] key = ByteUtils.concat(redisKey, SUFFIX);
		try {
			LettuceCommands.await(
					((LettuceConnection) node).getNativeConnection().<Long>eval(COVER, ScriptOutputType.INTEGER, key),
					timeoutMillis);
			return true;
		}
		catch (RuntimeException ex) {
			if (redirect(ex, "MOVED ") != null || redirect(ex, "ASK ") != null) {
				return false;
			}
			throw ex;
		}
	}

	private static StatefulRedisConnection<byte[], byte[]> node(StatefulRedisClusterConnection<byte[], byte[]> cluster,
			String host, int port, long timeoutMillis) {
		return LettuceCommands.await(cluster.getConnectionAsync(host, port), timeoutMillis);
	}

	// The redirection's words ("MOVED 3999 127.0.0.1:6381"), or null for another failure.
	private static String @Nullable [] redirect(Throwable failure, String kind) {
		String message = RedisCalls.rootMessage(failure);
		return message.startsWith(kind) ? message.trim().split(" ") : null;
	}

	// Spring hands out the cluster's command interface only; Lettuce 6 deprecates the way
	// from it to its connection (for Lettuce 7, which drops it), and offers no other.
	@SuppressWarnings("deprecation")
	private static StatefulRedisClusterConnection<byte[], byte[]> cluster(RedisConnection connection) {
		return ((RedisAdvancedClusterAsyncCommands<byte[], byte[]>) ((LettuceConnection) connection)
			.getNativeConnection()).getStatefulConnection();
	}

}
