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

package dev.lease.observation;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;

/**
 * The takes waiting now through one observed host, blocking or not, and the two gauges
 * that show them: {@code lease.waiting}, how many, and {@code lease.waiting.oldest}, how
 * long the oldest has waited (0 when none). Both are tagged {@code lease.host} only.
 *
 * @author Lease contributors
 */
final class WaitingTakes {

	private final Clock clock;

	// Each waiting take, with the monotonic time it began to wait. A scrape walks them
	// all; that is as many as there are threads or questions waiting, which is the
	// contention the gauges exist to show.
	private final Map<Waiting, Long> since = new ConcurrentHashMap<>();

	WaitingTakes(String hostName, MeterRegistry meters) {
		this.clock = meters.config().clock();
		String hostKey = LeaseObservationDocumentation.LowCardinalityKeyNames.HOST.asString();
		Gauge.builder("lease.waiting", this.since, Map::size)
			.description("Takes waiting now through this host, blocking or not")
			.tag(hostKey, hostName)
			.register(meters);
		TimeGauge.builder("lease.waiting.oldest", this, TimeUnit.NANOSECONDS, WaitingTakes::oldestNanos)
			.description("How long the oldest take still waiting through this host has waited, 0 when none")
			.tag(hostKey, hostName)
			.register(meters);
	}

	/**
	 * Count a take as waiting from now until the returned waiting is closed.
	 * @return the waiting, to close once the take is answered, cancelled or interrupted
	 */
	Waiting begin() {
		Waiting waiting = new Waiting();
		this.since.put(waiting, this.clock.monotonicTime());
		return waiting;
	}

	private double oldestNanos() {
		long now = this.clock.monotonicTime();
		return this.since.values().stream().mapToLong((began) -> now - began).max().orElse(0);
	}

	/**
	 * One take waiting; closing it more than once is harmless.
	 */
	final class Waiting implements AutoCloseable {

		@Override
		public void close() {
			WaitingTakes.this.since.remove(this);
		}

	}

}
