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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.backoff.ExponentialBackOff;

import dev.lease.LeaseHostException;

/**
 * The one pub/sub subscription of a host: the script publishes on one channel whenever it
 * hands a key to a waiter or the waiter next in line changes, naming the ticket the key
 * went to and the ticket now next in line; only those two of this JVM's waiters wake. The
 * others sleep until their bound. A lost message costs latency only: one waiter per key
 * in this JVM, its delegate, also re-asks on its own, and tells the others what it
 * learns.
 *
 * @author Lease contributors
 */
final class RedisWakeups implements MessageListener, SubscriptionListener, AutoCloseable {

	private static final long SUBSCRIBE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

	private static final long RECOVERY_FIRST_MILLIS = 50;

	private final ConcurrentHashMap<String, Waiters> waiting = new ConcurrentHashMap<>();

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
		// A blocking client's subscription that fails is made again by the container:
		// soon, since every handoff published meanwhile waits for it.
		this.container.setRecoveryBackoff(recoveryBackoff());
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

	private static ExponentialBackOff recoveryBackoff() {
		ExponentialBackOff backoff = new ExponentialBackOff(RECOVERY_FIRST_MILLIS, 2);
		backoff.setMaxInterval(RedisMessageListenerContainer.DEFAULT_RECOVERY_INTERVAL);
		return backoff;
	}

	// Subscribed: at start, and again after the subscription's connection was lost
	// (Lettuce
	// re-subscribes on its own, the container does for Jedis). Any handoff published
	// meanwhile was lost: every waiter asks once.
	@Override
	public void onChannelSubscribed(byte[] channel, long count) {
		this.waiting.values().forEach(Waiters::askNow);
	}

	@Override
	public void onMessage(Message message, byte[] pattern) {
		String body = new String(message.getBody(), StandardCharsets.US_ASCII);
		if (body.equals(this.probe)) {
			this.probed.release();
			return;
		}
		// "<redis key> <ticket> <expiresAt> <next ticket> <standing remaining>" ('-' for
		// no
		// ticket): the key was handed to that ticket, and the next in line must ask when
		// the
		// standing grant ends.
		String[] parts = body.split(" ");
		try {
			if (parts.length >= 3 && !parts[1].equals("-")) {
				wake(parts[0], new Handed(parts[1], Long.parseLong(parts[2])));
			}
			if (parts.length == 5 && !parts[3].equals("-")) {
				nextInLine(parts[0], parts[3], Long.parseLong(parts[4]));
			}
		}
		catch (NumberFormatException ex) {
			// not a message of ours: nobody wakes, the delegate's re-ask covers it
		}
	}

	// Wake the waiter of this JVM the key was handed to, if it waits here: from the
	// channel, at once from a release made here, or from a delegate's answer.
	void wake(String key, Handed handed) {
		Signal signal = signal(key, handed.ticket());
		if (signal != null) {
			signal.signal(handed);
		}
	}

	// Tell the waiter now next in line, if it waits here, when the standing grant ends.
	private void nextInLine(String key, String ticket, long standingMicros) {
		Signal signal = signal(key, ticket);
		if (signal != null) {
			signal.nextInLine(standingMicros);
		}
	}

	private @Nullable Signal signal(String key, String ticket) {
		Waiters waiters = this.waiting.get(key);
		return (waiters != null) ? waiters.get(ticket) : null;
	}

	Signal register(String key, String ticket) {
		Signal signal = new Signal(ticket);
		this.waiting.compute(key, (k, waiters) -> {
			Waiters registered = (waiters != null) ? waiters : new Waiters();
			registered.add(signal);
			return registered;
		});
		return signal;
	}

	void unregister(String key, Signal signal) {
		this.waiting.computeIfPresent(key, (k, waiters) -> waiters.remove(signal) ? null : waiters);
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
	 * This JVM's waiters of one key, by ticket; the first registered of them is the
	 * delegate, which re-asks on its own for the others.
	 */
	private static final class Waiters {

		private final Map<String, Signal> byTicket = new LinkedHashMap<>();

		synchronized void add(Signal signal) {
			this.byTicket.put(signal.ticket, signal);
			if (this.byTicket.size() == 1) {
				signal.delegate = true;
			}
		}

		synchronized void askNow() {
			this.byTicket.values().forEach(Signal::askNow);
		}

		synchronized @Nullable Signal get(String ticket) {
			return this.byTicket.get(ticket);
		}

		// Whether no waiter is left; a delegate leaving hands its part to the next.
		synchronized boolean remove(Signal signal) {
			this.byTicket.remove(signal.ticket, signal);
			if (signal.delegate && !this.byTicket.isEmpty()) {
				Signal next = this.byTicket.values().iterator().next();
				next.delegate = true;
				next.semaphore.release();
			}
			return this.byTicket.isEmpty();
		}

	}

	/**
	 * One waiting thread's wake-up call.
	 */
	static final class Signal {

		// No instant set: the waiter is not known to be next in line.
		static final long NOT_NEXT = Long.MAX_VALUE;

		private final String ticket;

		private final Semaphore semaphore = new Semaphore(0);

		private volatile @Nullable Handed handed;

		private volatile long askAt = NOT_NEXT;

		private volatile boolean delegate;

		private volatile boolean askNow;

		Signal(String ticket) {
			this.ticket = ticket;
		}

		void signal(Handed handed) {
			this.handed = handed;
			this.semaphore.release();
		}

		void askNow() {
			this.askNow = true;
			this.semaphore.release();
		}

		// Whether a wake-up that named nobody asked this waiter to ask; forgets it.
		boolean takeAskNow() {
			boolean ask = this.askNow;
			this.askNow = false;
			return ask;
		}

		// Next in line: ask when the standing grant ends, in standingMicros from now.
		void nextInLine(long standingMicros) {
			this.askAt = System.nanoTime() + Math.max(0, standingMicros) * 1000;
			this.semaphore.release();
		}

		// What an answer said. An answer "not next" leaves alone a message "next" that
		// overtook it: once next in line, a waiter stays next (FIFO) until it is handed
		// the key, and the standing grant's instant stays what it was. An instant that
		// passed is dropped, so that it cannot make the waiter ask again and again.
		void answered(boolean next, long standingMicros) {
			long now = System.nanoTime();
			if (next) {
				this.askAt = now + Math.max(0, standingMicros) * 1000;
			}
			else if (this.askAt <= now) {
				this.askAt = NOT_NEXT;
			}
		}

		// The System.nanoTime() at which this waiter, next in line, must ask; or
		// NOT_NEXT.
		long askAt() {
			return this.askAt;
		}

		// Whether this waiter re-asks for its key's waiters in this JVM.
		boolean delegate() {
			return this.delegate;
		}

		// The expiresAt of a grant the host published as handed to this ticket, or -1.
		long handed() {
			Handed handed = this.handed;
			return (handed != null && handed.ticket().equals(this.ticket)) ? handed.expiresAt() : -1;
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
