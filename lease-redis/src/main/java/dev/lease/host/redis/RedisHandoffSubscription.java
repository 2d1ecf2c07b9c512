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
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

import dev.lease.LeaseHostException;
import dev.lease.host.HostThreads;
import dev.lease.host.Wakeups;

/**
 * The pub/sub subscription of a host, which wakes its waiters ({@link Wakeups}, by Redis
 * key and ticket): the script publishes a {@link RedisHandoffMessage} whenever it hands a
 * key to a waiter or the waiter next in line changes, and only the two waiters it names
 * wake. It listens on the host's one plain channel, or, where the host's handoffs are
 * sharded ({@link RedisHandoffChannels}), on the channels of the slots its waiters wait
 * in ({@link LettuceShardedHandoffs}); either way every message is read here. A lost
 * message costs latency only: one waiter per key in this JVM, its delegate, also re-asks
 * on its own and wakes the waiters its answer names. Once the subscription is made again
 * after its connection was lost, every waiter asks once, since whatever was published
 * meanwhile is lost.
 *
 * @author Lease contributors
 */
final class RedisHandoffSubscription implements MessageListener, SubscriptionListener, AutoCloseable {

	/**
	 * The longest a waiter's first question waits for its slot's subscription: past it,
	 * the waiter asks on its own, at a cost of latency only.
	 */
	static final long FIRST_QUESTION_WAIT_MILLIS = 1_000;

	private static final long SUBSCRIBE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

	private static final long RECOVERY_FIRST_MILLIS = 50;

	private static final long CLOSE_TIMEOUT_MILLIS = 5000;

	private static final Log logger = LogFactory.getLog(RedisHandoffSubscription.class);

	private final Wakeups<String, String> wakeups;

	private final Runnable disturbed;

	private final HostThreads threads;

	private final AtomicBoolean subscribedOnce = new AtomicBoolean();

	// One of the two: the plain channel's container, or the sharded subscriptions.
	private final @Nullable RedisMessageListenerContainer container;

	private final @Nullable LettuceShardedHandoffs sharded;

	private final String probe = "probe:" + UUID.randomUUID();

	private final Semaphore probed = new Semaphore(0);

	RedisHandoffSubscription(RedisConnectionFactory connectionFactory, RedisHandoffChannels channels,
			Wakeups<String, String> wakeups, Runnable disturbed, HostThreads threads) {
		this.threads = threads;
		this.wakeups = wakeups;
		this.disturbed = disturbed;
		if (channels.sharded()) {
			this.container = null;
			this.sharded = new LettuceShardedHandoffs(connectionFactory, channels, wakeups::hasWaiters, this::onBody,
					this::subscribedAgain, threads);
			return;
		}
		this.sharded = null;
		String channel = channels.plain();
		RedisMessageListenerContainer container = new RedisMessageListenerContainer() {

			// The subscription's connection failed: the server may be restarting or gone,
			// and with a blocking client the container's quick retries can use up the
			// pool's connections to the old server before a question meets one and fails,
			// so no failed call may be left to report it.
			@Override
			protected void handleSubscriptionException(CompletableFuture<Void> future, BackOffExecution backOff,
					Throwable ex) {
				disturbed.run();
				super.handleSubscriptionException(future, backOff, ex);
			}

		};
		container.setConnectionFactory(connectionFactory);
		// A blocking client (Jedis) holds a thread for the subscription, one of the
		// host's own (HostThreads); signalling is cheap, so it runs on that thread.
		container.setSubscriptionExecutor((task) -> threads.startLoop("subscription", task));
		container.setTaskExecutor(Runnable::run);
		// A blocking client's subscription that fails is made again by the container:
		// soon, since every handoff published meanwhile waits for it.
		ExponentialBackOff recoveryBackoff = new ExponentialBackOff(RECOVERY_FIRST_MILLIS, 2);
		recoveryBackoff.setMaxInterval(RedisMessageListenerContainer.DEFAULT_RECOVERY_INTERVAL);
		container.setRecoveryBackoff(recoveryBackoff);
		container.addMessageListener(this, new ChannelTopic(channel));
		this.container = container;
		container.afterPropertiesSet();
		container.start();
		awaitSubscribed(connectionFactory, channel.getBytes(StandardCharsets.US_ASCII));
	}

	// A waiter subscribes before it asks a question whose answer it will sleep on: make
	// sure the subscription stands before the host answers anything.
	private void awaitSubscribed(RedisConnectionFactory connectionFactory, byte[] channel) {
		long deadline = System.nanoTime() + SUBSCRIBE_TIMEOUT_NANOS;
		try (RedisConnection connection = connectionFactory.getConnection()) {
			while (System.nanoTime() < deadline) {
				connection.publish(channel, this.probe.getBytes(StandardCharsets.US_ASCII));
				if (this.probed.tryAcquire(50, TimeUnit.MILLISECONDS)) {
					return;
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		close();
		throw new LeaseHostException("The Redis subscription on channel '"
				+ new String(channel, StandardCharsets.US_ASCII) + "' was not established");
	}

	// Subscribed: at start, and again after the subscription's connection was lost
	// (Lettuce subscribes again on its own, the container does for Jedis), which
	// disturbs the durability check as subscribedAgain does.
	@Override
	public void onChannelSubscribed(byte[] channel, long count) {
		if (this.subscribedOnce.getAndSet(true)) {
			this.disturbed.run();
		}
		this.wakeups.wakeAll();
	}

	// Made again after a loss, or a sharded one after its slot moved: perhaps on another
	// server, which the durability check must read before the next take is let through.
	private void subscribedAgain() {
		this.disturbed.run();
		this.wakeups.wakeAll();
	}

	// Before a waiter's first question: completes once a message about the key reaches
	// this host (at once on the plain channel, subscribed at start).
	CompletableFuture<Void> waiting(byte[] redisKey) {
		LettuceShardedHandoffs sharded = this.sharded;
		return (sharded != null) ? sharded.waiting(redisKey) : CompletableFuture.completedFuture(null);
	}

	@Override
	public void onMessage(Message message, byte[] pattern) {
		onBody(new String(message.getBody(), StandardCharsets.US_ASCII));
	}

	private void onBody(String body) {
		if (body.equals(this.probe)) {
			this.probed.release();
			return;
		}
		RedisHandoffMessage handoff = RedisHandoffMessage.parse(body);
		if (handoff == null) {
			// Not of our format: every waiter of the key the message starts with asks.
			this.wakeups.wake(body.split(" ", 2)[0], List.of());
			return;
		}
		Wakeups.Handoff<String> handed = handoff.handoff();
		if (handed != null) {
			this.wakeups.wake(handoff.redisKey(), List.of(handed));
		}
		if (handoff.nextTicket() != null) {
			this.wakeups.nextInLineAt(handoff.redisKey(), handoff.nextTicket(),
					System.nanoTime() + Math.max(0, handoff.standingRemaining()) * 1000);
		}
	}

	@Override
	public void close() {
		AtomicReference<@Nullable Exception> failure = new AtomicReference<>();
		LettuceShardedHandoffs sharded = this.sharded;
		if (sharded != null) {
			sharded.close();
			return;
		}
		RedisMessageListenerContainer container = this.container;
		if (container == null) {
			return;
		}
		Thread closing = this.threads.startLoop("subscription-close", () -> {
			try {
				container.destroy();
			}
			catch (Exception ex) {
				failure.set(ex);
			}
		});
		try {
			closing.join(CLOSE_TIMEOUT_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (closing.isAlive()) {
			// The container can keep its lock while a recovery attempt made inside
			// another
			// waits for a subscription that never completes (a server down across several
			// retries): the daemon thread is left to it rather than the caller's
			// shutdown.
			logger.warn("The Redis subscription did not stop within " + CLOSE_TIMEOUT_MILLIS
					+ " ms; it is left to a daemon thread");
			return;
		}
		Exception ex = failure.get();
		if (ex != null) {
			throw new LeaseHostException("Could not stop the Redis subscription", ex);
		}
	}

}
