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

package dev.lease.autoconfigure.redis;

import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.lease.LeaseHost;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseConfigurationException;
import dev.lease.autoconfigure.LeaseHostTarget;
import dev.lease.autoconfigure.LeaseHostThreads;
import dev.lease.host.IncompatibleStoreProtocolException;
import dev.lease.host.redis.RedisDurability;
import dev.lease.host.redis.RedisDurabilityRequiredException;
import dev.lease.host.redis.RedisLeaseHost;
import dev.lease.host.redis.RedisReplicasToAckUnsupportedException;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link RedisLeaseHost}:
 * chosen by {@code lease.host=redis}, or detected first when a
 * {@link RedisConnectionFactory} is available and no {@link LeaseHost} bean is defined.
 * With Micrometer, the {@code lease.host.durability} gauge follows the host's latest
 * durability check.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
// Every type outside this jar is named, never a class literal: a literal of an absent
// class
// is dropped when the class is introspected by reflection (a user's context runner test),
// and the configuration would then be processed without Spring Data Redis.
@AutoConfiguration(before = LeaseAutoConfiguration.class,
		afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass(name = { "org.springframework.data.redis.connection.RedisConnectionFactory",
		"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration" })
@ConditionalOnBean(type = "org.springframework.data.redis.connection.RedisConnectionFactory")
@ConditionalOnProperty(name = "lease.host", havingValue = "redis", matchIfMissing = true)
@EnableConfigurationProperties(RedisLeaseHostProperties.class)
public final class RedisLeaseHostAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(LeaseHost.class)
	RedisLeaseHost leaseHost(RedisConnectionFactory connectionFactory, RedisLeaseHostProperties properties,
			ObjectProvider<LeaseHostThreads> threads, ObjectProvider<RedisLeaseHostBuilderCustomizer> customizers) {
		// closed by the context: its destroy method, close(), is inferred
		RedisLeaseHost.Builder builder = RedisLeaseHost.builder(connectionFactory);
		LeaseConfigurationException.applyProperty("lease.redis.key-prefix", properties.keyPrefix(),
				"printable ASCII without spaces, braces or glob characters, such as 'orders:lease:'",
				() -> builder.keyPrefix(properties.keyPrefix()));
		LeaseConfigurationException.applyProperty("lease.redis.durability-check-interval",
				properties.durabilityCheckInterval(), "a positive duration, or 0 for no schedule",
				() -> builder.durabilityCheckInterval(properties.durabilityCheckInterval()));
		boolean count = properties.replicasToAck() < 0;
		LeaseConfigurationException.applyProperty(count ? "lease.redis.replicas-to-ack" : "lease.redis.replica-timeout",
				count ? properties.replicasToAck() : properties.replicaTimeout(),
				count ? "0 (no confirmation) or the number of replicas that must acknowledge each grant"
						: "a positive duration",
				() -> builder.replicasToAck(properties.replicasToAck(), properties.replicaTimeout()));
		builder.requireDurable(properties.requireDurable()).assumeDurable(properties.assumeDurable());
		threads.ifAvailable((given) -> given.applyTo(builder));
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		try {
			// Redis down at start builds the host all the same (health reports it down),
			// unless durability is required: then the start needs an answer it cannot
			// get.
			return builder.build();
		}
		catch (RedisDurabilityRequiredException ex) {
			throw new LeaseConfigurationException(String.valueOf(ex.getMessage()), requireDurableAction(ex), ex);
		}
		catch (IncompatibleStoreProtocolException ex) {
			throw new LeaseConfigurationException(ex.description(), ex.action(), ex);
		}
		catch (RedisReplicasToAckUnsupportedException ex) {
			throw new LeaseConfigurationException(String.valueOf(ex.getMessage()),
					"Set lease.redis.replicas-to-ack=0 to answer grants without the replicas' acknowledgement (a"
							+ " failover can then lose a grant), or use a Redis primary, reached directly, through"
							+ " Sentinel or as a Redis Cluster through Lettuce, that serves WAIT and CLIENT INFO",
					ex);
		}
	}

	private static String requireDurableAction(RedisDurabilityRequiredException ex) {
		if (!ex.reached()) {
			return "Start Redis before the application, or set lease.redis.require-durable=false: the"
					+ " application then starts without Redis, reports the lease host DOWN in health, and its"
					+ " lease operations fail until Redis answers";
		}
		String configure = "Make the Redis server keep every grant (appendonly yes with appendfsync always or"
				+ " everysec, and maxmemory-policy noeviction), or set lease.redis.require-durable=false to accept"
				+ " a server that can lose grants";
		return (ex.durability().status() != RedisDurability.Status.UNKNOWN) ? configure
				: configure + ". Where the server does not say (CONFIG refused, as on managed services) and its"
						+ " own configuration keeps every grant, state so with lease.redis.assume-durable=true";
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
	static class DurabilityMetricsConfiguration {

		// Bound to every registry once the context is refreshed, when the host exists:
		// also a RedisLeaseHost the application defined. The bean may be the observed
		// host around it, so its target is asked.
		@Bean
		@ConditionalOnMissingBean(name = "leaseHostDurabilityMetrics")
		MeterBinder leaseHostDurabilityMetrics(ObjectProvider<LeaseHost> hosts) {
			return (registry) -> {
				LeaseHost host = hosts.getIfUnique();
				if (host != null && LeaseHostTarget.of(host) instanceof RedisLeaseHost redis) {
					RedisDurabilityGauge.register(redis, registry);
				}
			};
		}

	}

}
