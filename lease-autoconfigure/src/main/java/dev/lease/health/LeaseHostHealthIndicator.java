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

package dev.lease.health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.util.Assert;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.autoconfigure.LeaseHostTarget;
import dev.lease.host.ProtocolRecordingHost;
import dev.lease.host.StoreProtocolReading;

/**
 * Health of a lease host: up when the host answers a question that writes nothing
 * ({@code remaining} for a probe key and holder, Check 5.2), down with the failure
 * otherwise. A host whose store records its protocol ({@link ProtocolRecordingHost})
 * shows the protocol it speaks beside the recorded one, read again at every check, and is
 * down when the store records a protocol it cannot work beside.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class LeaseHostHealthIndicator extends AbstractHealthIndicator {

	private static final LeaseKey PROBE_KEY = LeaseKey.of("lease:health-probe");

	private final LeaseHost host;

	private final String hostName;

	private final Supplier<Map<String, Object>> details;

	private final LeaseHolder probe = LeaseHolder.of("health-probe/" + UUID.randomUUID());

	/**
	 * Create an indicator for the given host.
	 * @param host the host
	 * @param hostName the host's name, shown as the {@code host} detail
	 */
	public LeaseHostHealthIndicator(LeaseHost host, String hostName) {
		this(host, hostName, Map.of());
	}

	/**
	 * Create an indicator for the given host that also shows the given details.
	 * @param host the host
	 * @param hostName the host's name, shown as the {@code host} detail
	 * @param details further details, shown after {@code host}
	 */
	public LeaseHostHealthIndicator(LeaseHost host, String hostName, Map<String, Object> details) {
		this(host, hostName, copy(details));
	}

	/**
	 * Create an indicator for the given host that also shows details read at every health
	 * check, such as the durability of a Redis server as the host's latest check found
	 * it.
	 * @param host the host
	 * @param hostName the host's name, shown as the {@code host} detail
	 * @param details supplies further details, shown after {@code host}
	 */
	public LeaseHostHealthIndicator(LeaseHost host, String hostName, Supplier<Map<String, Object>> details) {
		super("Lease host health check failed");
		Assert.notNull(host, "'host' must not be null");
		Assert.hasText(hostName, "'hostName' must not be empty");
		Assert.notNull(details, "'details' must not be null");
		this.host = host;
		this.hostName = hostName;
		this.details = details;
	}

	private static Supplier<Map<String, Object>> copy(Map<String, Object> details) {
		Assert.notNull(details, "'details' must not be null");
		Map<String, Object> copy = new LinkedHashMap<>(details);
		return () -> copy;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		try {
			this.host.remaining(PROBE_KEY, this.probe);
			builder.up();
			if (LeaseHostTarget.of(this.host) instanceof ProtocolRecordingHost recording) {
				StoreProtocolReading reading = recording.protocol();
				Map<String, Object> protocol = new LinkedHashMap<>();
				protocol.put("speaks", reading.ours().toString());
				protocol.put("recorded", Objects.toString(reading.recorded(), "none"));
				protocol.put("record", reading.record());
				builder.withDetail("protocol", protocol);
				if (!reading.compatible()) {
					builder.down(reading.refusal());
				}
			}
		}
		catch (RuntimeException ex) {
			// down, but still saying which host, and why as far as it knows (a Redis
			// host's durability reading names an unreachable server)
			builder.down(ex);
		}
		builder.withDetail("host", this.hostName).withDetails(this.details.get());
	}

}
