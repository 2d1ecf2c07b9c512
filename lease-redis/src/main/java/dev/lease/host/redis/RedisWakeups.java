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
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import dev.lease.LeaseHostException;

/**
 * The one pub/sub subscription of a host: the scripts publish a lease's Redis key on one
 * channel when they hand it to a waiter, and every waiter of that key in this JVM wakes
 * and asks where it stands. A lost message costs latency only: waiters also wake on their
 * own.
 *
 * @author Lease contributors
 */
final class RedisWakeups implements MessageListener, AutoCloseable {

	private static final long SUBSCRIBE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

	private final ConcurrentHashMap<String, Set<Signal>> waiting = new ConcurrentHashMap<>();

	private final RedisMessageListenerContainer container;

	private final String probe = "probe:" + UUID.randomUUID();

	private final Semaphore probed = new Semaphore(0);

	RedisWakeups(RedisConnectionFactory connectionFactory, String channel) {
		this.container = new RedisMessageListenerContainer();
		this.container.setConnectionFactory(connectionFactory);
		// A blocking client (Jedis) holds a thread for the subscription; signalling is
		// cheap, so it runs on that thread.
		this.container.setSubscriptionExecutor((task) -> {
			Thread thread = new Thread(task, "lease-redis-subscription");
			thread.setDaemon(true);
			thread.start();
		});
		this.container.setTaskExecutor(Runnable::run);
		this.container.addMessageListener(this, new ChannelTopic(channel));
		this.container.afterPropertiesSet();
		this.container.start();
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

	@Override
	public void onMessage(Message message, byte[] pattern) {
		String body = new String(message.getBody(), StandardCharsets.US_ASCII);
		if (body.equals(this.probe)) {
			this.probed.release();
			return;
		}
		// "<redis key> <ticket> <expiresAt>": the key was handed to that ticket.
		String[] parts = body.split(" ");
		Handed handed = null;
		if (parts.length == 3) {
			try {
				handed = new Handed(parts[1], Long.parseLong(parts[2]));
			}
			catch (NumberFormatException ex) {
				// a malformed message only wakes the waiters; they ask
			}
		}
		wake(parts[0], handed);
	}

	// Wake this JVM's waiters of a key, telling them to whom it was handed when that is
	// known: from the channel, or at once from a release made here.
	void wake(String key, @Nullable Handed handed) {
		Set<Signal> signals = this.waiting.get(key);
		if (signals != null) {
			for (Signal signal : signals) {
				signal.signal(handed);
			}
		}
	}

	Signal register(String key) {
		Signal signal = new Signal();
		this.waiting.compute(key, (k, signals) -> {
			Set<Signal> set = (signals != null) ? signals : ConcurrentHashMap.newKeySet();
			set.add(signal);
			return set;
		});
		return signal;
	}

	void unregister(String key, Signal signal) {
		this.waiting.computeIfPresent(key, (k, signals) -> {
			signals.remove(signal);
			return signals.isEmpty() ? null : signals;
		});
	}

	@Override
	public void close() {
		try {
			this.container.destroy();
		}
		catch (Exception ex) {
			throw new LeaseHostException("Could not stop the Redis subscription", ex);
		}
	}

	/**
	 * One waiting thread's wake-up call.
	 */
	static final class Signal {

		private final Semaphore semaphore = new Semaphore(0);

		private volatile @Nullable Handed handed;

		void signal(@Nullable Handed handed) {
			if (handed != null) {
				this.handed = handed;
			}
			this.semaphore.release();
		}

		// The expiresAt of a grant the host published as handed to this ticket, or -1.
		long handedTo(String ticket) {
			Handed handed = this.handed;
			return (handed != null && handed.ticket().equals(ticket)) ? handed.expiresAt() : -1;
		}

		// Sleep until signalled or the time is up; a signal that came while awake counts.
		void await(long micros) throws InterruptedException {
			if (this.semaphore.tryAcquire(Math.max(1, micros), TimeUnit.MICROSECONDS)) {
				this.semaphore.drainPermits();
			}
		}

	}

	/**
	 * A handoff as published: the ticket the key went to and the grant's expiresAt.
	 *
	 * @param ticket the waiter's ticket
	 * @param expiresAt the grant's instant in microseconds since the epoch
	 */
	record Handed(String ticket, long expiresAt) {

	}

}
