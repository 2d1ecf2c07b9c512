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
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.host.HostThreads;

/**
 * The sharded handoff subscriptions of a host on a Redis Cluster, through Lettuce's
 * cluster pub/sub connection, which sends each {@code SSUBSCRIBE} to the master serving
 * the channel's slot: one channel a slot in which this host has waiters
 * ({@link RedisHandoffChannels}), subscribed before a waiter's first question is sent. A
 * slot is unsubscribed once none of the keys that waited in it has waiters and none asked
 * for it lately. When a reshard or a failover moves a slot, Redis ends its subscriptions
 * there ({@code SUNSUBSCRIBE} from the server); the slot is subscribed again where it now
 * is, after the cluster's topology is read again, and every waiter asks once, since what
 * was published meanwhile is lost. Loaded only when Lettuce is on the class path.
 *
 * @author Lease contributors
 */
final class LettuceShardedHandoffs extends RedisPubSubAdapter<byte[], byte[]> implements AutoCloseable {

	// How long a key that asked for its slot keeps the slot subscribed without waiters:
	// its waiter registers just before or after it asks.
	private static final long KEEP_NANOS = TimeUnit.SECONDS.toNanos(10);

	private static final long RESUBSCRIBE_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(60);

	private static final long RESUBSCRIBE_PAUSE_MAX_MILLIS = 1000;

	private static final Log logger = LogFactory.getLog(LettuceShardedHandoffs.class);

	private final RedisClusterClient client;

	private final StatefulRedisClusterPubSubConnection<byte[], byte[]> connection;

	private final RedisHandoffChannels channels;

	private final Predicate<String> hasWaiters;

	private final Consumer<String> onBody;

	private final Runnable resubscribed;

	// Blocking work (reading the topology, subscribing again) off the client's threads.
	private final ExecutorService resubscriptions;

	// guarded by this: the subscribed slots, each with the keys that asked for it
	private final Map<Integer, Slot> slots = new HashMap<>();

	private volatile boolean closed;

	// hasWaiters: whether a Redis key has waiters here; onBody: a message's body;
	// resubscribed: a slot was subscribed again, its messages meanwhile lost.
	LettuceShardedHandoffs(RedisConnectionFactory connectionFactory, RedisHandoffChannels channels,
			Predicate<String> hasWaiters, Consumer<String> onBody, Runnable resubscribed, HostThreads threads) {
		// one at a time, in order
		this.resubscriptions = threads.confinedTimer("sharded-subscription");
		this.client = (RedisClusterClient) ((LettuceConnectionFactory) connectionFactory).getRequiredNativeClient();
		this.channels = channels;
		this.hasWaiters = hasWaiters;
		this.onBody = onBody;
		this.resubscribed = resubscribed;
		this.connection = this.client.connectPubSub(ByteArrayCodec.INSTANCE);
		this.connection.addListener(this);
	}

	// Whether this client can subscribe per slot: a Lettuce factory of a cluster.
	static boolean handles(RedisConnectionFactory connectionFactory) {
		return connectionFactory instanceof LettuceConnectionFactory lettuce
				&& lettuce.getNativeClient() instanceof RedisClusterClient;
	}

	// The key's slot is subscribed, or is being: completes once it is (or failed: its
	// waiters then hear of handoffs by asking, as of a lost message).
	CompletableFuture<Void> waiting(byte[] redisKey) {
		int slot = RedisHandoffChannels.slot(redisKey);
		String key = new String(redisKey, StandardCharsets.US_ASCII);
		long now = System.nanoTime();
		synchronized (this) {
			Slot subscribed = this.slots.get(slot);
			if (subscribed != null) {
				subscribed.keys.put(key, now);
				return subscribed.subscribed;
			}
			sweep(now);
			Slot fresh = new Slot();
			fresh.keys.put(key, now);
			this.slots.put(slot, fresh);
			this.connection.async().ssubscribe(channel(slot)).whenComplete((subscribedTo, failure) -> {
				if (failure != null) {
					// not subscribed: the next waiter in the slot tries again
					synchronized (this) {
						this.slots.remove(slot, fresh);
					}
				}
				fresh.subscribed.complete(null);
			});
			return fresh.subscribed;
		}
	}

	// Unsubscribe the slots none of whose keys has waiters or asked lately.
	private void sweep(long now) {
		for (Iterator<Map.Entry<Integer, Slot>> slots = this.slots.entrySet().iterator(); slots.hasNext();) {
			Map.Entry<Integer, Slot> slot = slots.next();
			slot.getValue().keys.entrySet()
				.removeIf((key) -> now - key.getValue() > KEEP_NANOS && !this.hasWaiters.test(key.getKey()));
			if (slot.getValue().keys.isEmpty()) {
				slots.remove();
				this.connection.async().sunsubscribe(channel(slot.getKey()));
			}
		}
	}

	// Confirmed by the server: at first, and again after a move or a reconnection
	// (Lettuce subscribes again on its own when a node's connection comes back).
	@Override
	public void ssubscribed(byte[] channel, long count) {
		boolean again;
		synchronized (this) {
			Slot slot = this.slots.get(RedisHandoffChannels.slot(channel));
			if (slot == null) {
				return;
			}
			again = slot.confirmed;
			slot.confirmed = true;
		}
		if (again) {
			this.resubscribed.run();
		}
	}

	@Override
	public void smessage(byte[] channel, byte[] message) {
		this.onBody.accept(new String(message, StandardCharsets.US_ASCII));
		synchronized (this) {
			sweep(System.nanoTime());
		}
	}

	// Sent by the server when the slot moved away (a reshard, a failover), and in answer
	// to our own SUNSUBSCRIBE, after which the slot is no longer ours.
	@Override
	public void sunsubscribed(byte[] channel, long count) {
		int slot = RedisHandoffChannels.slot(channel);
		synchronized (this) {
			if (this.closed || !this.slots.containsKey(slot)) {
				return;
			}
		}
		try {
			this.resubscriptions.execute(() -> resubscribe(slot));
		}
		catch (RejectedExecutionException ex) {
			// closed
		}
	}

	// Read the topology again until the slot's new master takes the subscription.
	private void resubscribe(int slot) {
		long deadline = System.nanoTime() + RESUBSCRIBE_WINDOW_NANOS;
		long pauseMillis = RedisMigrations.FIRST_PAUSE_MILLIS;
		while (!this.closed && System.nanoTime() < deadline) {
			synchronized (this) {
				if (!this.slots.containsKey(slot)) {
					return;
				}
			}
			try {
				this.client.refreshPartitions();
				this.connection.sync().ssubscribe(channel(slot));
				return;
			}
			catch (RuntimeException ex) {
				logger.debug("Could not subscribe again to the handoffs of slot " + slot, ex);
			}
			try {
				Thread.sleep(pauseMillis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			pauseMillis = Math.min(RESUBSCRIBE_PAUSE_MAX_MILLIS, pauseMillis * 2);
		}
		if (this.closed) {
			return;
		}
		synchronized (this) {
			// the next waiter in the slot tries again
			this.slots.remove(slot);
		}
		logger.warn("The handoffs of slot " + slot + " could not be subscribed again; its waiters ask on their own");
	}

	private byte[] channel(int slot) {
		return this.channels.ofSlot(slot).getBytes(StandardCharsets.US_ASCII);
	}

	@Override
	public void close() {
		this.closed = true;
		this.resubscriptions.shutdownNow();
		this.connection.close();
	}

	/**
	 * A subscribed slot: when its subscription stood, whether the server confirmed it,
	 * and the keys that asked for it.
	 */
	private static final class Slot {

		private final CompletableFuture<Void> subscribed = new CompletableFuture<>();

		private final Map<String, Long> keys = new HashMap<>();

		private boolean confirmed;

	}

}
