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

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.lease.host.redis.RedisLeaseHost;

/**
 * Configuration properties for the Redis lease host.
 *
 * @param keyPrefix Prefix of every Redis key and of the handoff channel the host uses:
 * printable ASCII without spaces, braces or glob characters.
 * @param requireDurable Whether the Redis server must be known to keep every grant:
 * append-only file on with appendfsync always or everysec, and no eviction (maxmemory 0
 * or maxmemory-policy noeviction). When it is not, or CONFIG is disabled, the start
 * fails; once started, takes fail with LeaseHostException while the latest check does not
 * find it durable.
 * @param assumeDurable Whether to take a Redis server that does not say whether it keeps
 * every grant (CONFIG renamed away or denied by an ACL, as managed services do) as
 * durable: its durability then reads DURABLE, the reason and a start-up warning saying it
 * is assumed, and require-durable accepts it. A server that answers CONFIG GET is judged
 * by its answer. Set it only for a service configured to keep every grant (persistence
 * on, no eviction): if it does not, grants are lost unreported.
 * @param durabilityCheckInterval How often the Redis server's durability settings are
 * read again while the host runs; 0 for no schedule. A check is five small commands (INFO
 * server and four CONFIG GET), so every 10 seconds costs the server nothing noticeable
 * even from hundreds of instances, and bounds how long a change on the running server
 * (CONFIG SET appendonly no, maxmemory-policy allkeys-lru) goes unreported. A
 * reconnection (a restart, a failover) or a failed call is checked at once, whatever this
 * is.
 * @param replicasToAck Number of replicas that must acknowledge each grant, with WAIT,
 * before a take answers Taken; 0 to not wait. Not supported on a Redis Cluster through
 * Jedis, nor on a server that refuses WAIT or CLIENT INFO: either fails the start.
 * @param replicaTimeout Longest wait for the replicas to acknowledge a grant.
 * @author Lease contributors
 * @since 0.1.0
 */
@ConfigurationProperties("lease.redis")
public record RedisLeaseHostProperties(@DefaultValue(RedisLeaseHost.DEFAULT_KEY_PREFIX) String keyPrefix,
		boolean requireDurable, boolean assumeDurable, @DefaultValue("10s") Duration durabilityCheckInterval,
		int replicasToAck, @DefaultValue("1s") Duration replicaTimeout) {

}
