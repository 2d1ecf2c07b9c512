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

package dev.lease.autoconfigure;

import java.util.List;
import java.util.Locale;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

import dev.lease.LeaseHost;
import dev.lease.host.inmemory.InMemoryLeaseHost;

/**
 * The host that was chosen, checked once: exactly one {@link LeaseHost} bean, logged at
 * INFO, with a warning when memory was reached by detection rather than chosen.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseHostSelection implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(LeaseHostSelection.class);

	private final ObjectProvider<LeaseHost> hosts;

	private final LeaseProperties properties;

	private volatile boolean logged;

	LeaseHostSelection(ObjectProvider<LeaseHost> hosts, LeaseProperties properties) {
		this.hosts = hosts;
		this.properties = properties;
	}

	/**
	 * Return the chosen host.
	 * @return the host
	 * @throws NoLeaseHostException when no host, or more than one, is available
	 */
	public LeaseHost host() {
		List<LeaseHost> candidates = this.hosts.stream().toList();
		if (candidates.size() == 1) {
			return candidates.get(0);
		}
		LeaseHost unique = this.hosts.getIfUnique();
		if (unique != null) {
			return unique;
		}
		LeaseProperties.Host named = this.properties.getHost();
		if (candidates.isEmpty()) {
			if (named == null) {
				throw new NoLeaseHostException("No LeaseHost is available",
						"Define a LeaseHost bean, or set lease.host to redis, jdbc or memory");
			}
			throw missing(named);
		}
		throw new NoLeaseHostException("More than one LeaseHost bean is defined (" + candidates.size() + ")",
				"Mark the one leases should use @Primary, or define only one");
	}

	private static NoLeaseHostException missing(LeaseProperties.Host named) {
		String name = named.name().toLowerCase(Locale.ROOT);
		String description = "lease.host is '" + name + "' but no " + name + " lease host could be created";
		return switch (named) {
			case REDIS -> new NoLeaseHostException(description, "The Redis lease host needs spring-boot-data-redis"
					+ " on the classpath and a RedisConnectionFactory bean; add them, or choose another lease.host");
			case JDBC -> new NoLeaseHostException(description, "The JDBC lease host needs spring-boot-jdbc on the"
					+ " classpath and a DataSource bean; add them, or choose another lease.host");
			default ->
				new NoLeaseHostException(description, "Remove the lease.host property, or define a LeaseHost bean");
		};
	}

	@Override
	public void afterSingletonsInstantiated() {
		LeaseHost host = host();
		if (this.logged) {
			return;
		}
		this.logged = true;
		String name = LeaseHostNames.of(host);
		if (host instanceof InMemoryLeaseHost && this.properties.getHost() == null) {
			logger.warn("Leases are hosted in memory because no Redis or JDBC host was detected. An in-memory lease is"
					+ " not shared across instances: it excludes callers in this JVM only. Set lease.host to redis or"
					+ " jdbc (with a RedisConnectionFactory or DataSource), or set lease.host=memory to choose memory"
					+ " explicitly");
		}
		else {
			logger.info("Leases are hosted by the " + name + " lease host (" + host.getClass().getName() + ")"
					+ ((this.properties.getHost() != null) ? ", chosen by lease.host" : ""));
		}
	}

}
