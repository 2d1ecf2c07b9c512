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

import java.net.ConnectException;
import java.util.Collection;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;

import dev.lease.LeaseHostException;
import dev.lease.host.GaveUp;
import dev.lease.host.Interrupts;
import dev.lease.host.TimedBorrow;

/**
 * The host's calls to Redis, each on a connection of its own, made so that an interrupt
 * neither fails a call nor is lost (Host semantics): a call answers, and the caller finds
 * its interrupt flag set again if an interrupt was pending or arrived meanwhile.
 * <p>
 * A pending interrupt is put aside for the call, because a pool (Jedis's, or Lettuce's
 * when pooled) would refuse to wait for a connection with it. An interrupt that ends the
 * wait for a connection has sent nothing: the call takes a connection again, unless the
 * caller may give up at that point (a take that has not asked anything yet, or a waiter
 * about to ask where it stands), which then learns so by {@link GaveUp}. Once a
 * connection is had, the command's answer is awaited whatever interrupts arrive: Jedis's
 * socket read is not interruptible, and Lettuce's wait is made not to be (see
 * {@link LettuceCommands}). So a failure caused by an interrupt is, through Jedis, a pool
 * that would not lend a connection (a cluster client borrows a node's inside the
 * command), before anything was sent; and through Lettuce's synchronous API, which the
 * host still uses for a few questions (listing grants, reading the configuration), a
 * question that changes nothing: either is asked again. Uninterrupted, a call costs what
 * it did: two reads of the thread's interrupt status.
 *
 * @author Lease contributors
 */
final class RedisCalls {

	private final RedisConnectionFactory connectionFactory;

	private final Runnable disturbed;

	// Where the factory's pool may wait for a connection without a limit (Jedis's, as
	// Spring Boot configures it): a waiter's question borrows through it, by its instant.
	private final @Nullable TimedBorrow lender;

	// disturbed: told of every failure to reach Redis, so that the durability of the
	// server the next call reaches is read again (a restart may have lost AOF).
	RedisCalls(RedisConnectionFactory connectionFactory, RedisDurabilityMonitor durability) {
		this.connectionFactory = connectionFactory;
		this.disturbed = durability::disturbed;
		this.lender = (RedisLeaseStore.jedisPresent && JedisReads.pooled(connectionFactory))
				? new TimedBorrow(durability.threads().executor()) : null;
	}

	// answerBy: for a waiter's question, the instant (a System.nanoTime() reading) by
	// which its connection is had or the call failed; null for any other call.
	<T> T call(String operation, boolean mayGiveUp, @Nullable Long answerBy, Function<RedisConnection, T> action) {
		boolean interrupted = Thread.interrupted();
		try {
			while (true) {
				RedisConnection connection = null;
				try {
					connection = connection(answerBy);
					return answer(connection, answerBy, action);
				}
				catch (RuntimeException ex) {
					if (connection != null && ex instanceof LeaseHostException) {
						throw ex;
					}
					// Without a connection, an interrupt pending is what failed the wait
					// for one; with one, a cluster client borrows a node's connection
					// inside the command.
					boolean pending = connection == null && Thread.interrupted();
					if (!(pending | Interrupts.causedByInterrupt(ex))) {
						throw failed(operation, ex);
					}
					Thread.interrupted();
					interrupted = true;
					if (mayGiveUp) {
						throw new GaveUp("a Redis connection");
					}
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	// The action's answer, its connection given back; off this thread when a waiter's
	// question failed: a pool that discards a broken connection may open its replacement
	// on the returning thread for the borrowers waiting (Jedis's does), whose first
	// commands then wait for a silent server.
	private <T> T answer(RedisConnection connection, @Nullable Long answerBy, Function<RedisConnection, T> action) {
		boolean answered = false;
		try {
			T answer = action.apply(connection);
			answered = true;
			return answer;
		}
		finally {
			TimedBorrow lender = this.lender;
			if (answered || answerBy == null || lender == null) {
				connection.close();
			}
			else {
				lender.giveBack(connection::close);
			}
		}
	}

	private RedisConnection connection(@Nullable Long answerBy) {
		TimedBorrow lender = this.lender;
		if (answerBy == null || lender == null) {
			return this.connectionFactory.getConnection();
		}
		try {
			return lender.borrow(answerBy, this.connectionFactory::getConnection, RedisConnection::close);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RedisConnectionFailureException("Interrupted while waiting for a connection", ex);
		}
		catch (TimeoutException ex) {
			throw new QueryTimeoutException(ex.getMessage(), ex);
		}
		catch (RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new RedisConnectionFailureException("Could not get a connection", ex);
		}
	}

	// The one report of a call that Redis did not answer, told to the durability check
	// too. It names the server and, when it could not be reached, what a user checks.
	LeaseHostException failed(String operation, Throwable failure) {
		this.disturbed.run();
		String cause = rootMessage(failure);
		if (unreachable(failure)) {
			return new LeaseHostException("Redis at " + where(this.connectionFactory) + " is unreachable (" + cause
					+ "): check that it is running and that spring.data.redis.* points to it (operation: " + operation
					+ ")", failure);
		}
		return new LeaseHostException(
				"Redis at " + where(this.connectionFactory) + " failed to answer " + operation + " (" + cause + ")",
				failure);
	}

	private static boolean unreachable(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof RedisConnectionFailureException || cause instanceof ConnectException
					|| cause instanceof QueryTimeoutException) {
				return true;
			}
		}
		return false;
	}

	// The innermost message: the server's own words (such as "ERR unknown command"),
	// which the clients' wrappers ("Error in execution") hide.
	static String rootMessage(Throwable failure) {
		Throwable root = NestedExceptionUtils.getMostSpecificCause(failure);
		return (root.getMessage() != null) ? root.getMessage() : root.getClass().getSimpleName();
	}

	// Whether the failure or a cause of it has a message that passes the test: Redis's
	// error text, which the clients' wrappers carry as their causes.
	static boolean anyMessage(Throwable failure, Predicate<String> test) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			String message = cause.getMessage();
			if (message != null && test.test(message)) {
				return true;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

	// Lettuce's and Jedis's factories answer the same getters, on no common type; read
	// them by name so that neither client need be present.
	static String where(RedisConnectionFactory factory) {
		try {
			// each answers null unless the factory is configured so
			if (get(factory, "getClusterConfiguration") instanceof RedisClusterConfiguration cluster) {
				return "cluster nodes " + nodes(cluster.getClusterNodes());
			}
			if (get(factory, "getSentinelConfiguration") instanceof RedisSentinelConfiguration sentinel) {
				String master = (sentinel.getMaster() != null) ? sentinel.getMaster().getName() : "?";
				return "master " + master + " through sentinels " + nodes(sentinel.getSentinels());
			}
			return get(factory, "getHostName") + ":" + get(factory, "getPort");
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return "the server of " + factory.getClass().getSimpleName();
		}
	}

	private static @Nullable Object get(Object target, String getter) throws ReflectiveOperationException {
		return target.getClass().getMethod(getter).invoke(target);
	}

	private static String nodes(Collection<? extends RedisNode> nodes) {
		return nodes.stream().map(RedisNode::asString).collect(Collectors.joining(", "));
	}

}
