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

package dev.lease.tck.jdbc;

import java.time.Duration;
import java.util.UUID;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.host.jdbc.JdbcLeaseHost;
import dev.lease.tck.AsyncLeaseHostAdapter;

/**
 * The conformance kit against {@link JdbcLeaseHost#async()} on one database, which each
 * subclass names: every question asked through the non-blocking view.
 *
 * @author Lease contributors
 */
abstract class JdbcAsyncLeaseHostConformance extends JdbcLeaseHostConformance {

	private LeaseHost adapter;

	@Override
	protected LeaseHost host() {
		if (this.adapter == null) {
			this.adapter = warmedUp(new AsyncLeaseHostAdapter(super.host()));
		}
		return this.adapter;
	}

	// Each question asked once, so that the view's first calls (its threads, the pool's
	// connections) are not paid inside a check's short term.
	private static LeaseHost warmedUp(LeaseHost host) {
		LeaseKey key = LeaseKey.of("warm-up-" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("warm-up");
		try {
			for (int i = 0; i < 3; i++) {
				host.tryTake(key, holder, Duration.ofSeconds(10));
				host.remaining(key, holder);
				host.grants(null, 1);
				host.release(key, holder);
				host.take(key, holder, Duration.ofSeconds(10));
				host.release(key, holder);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		return host;
	}

}
