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

import java.time.Duration;
import java.util.List;

import dev.lease.Lease;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.annotation.Leased;

import static org.awaitility.Awaitility.await;

/**
 * A bean with {@code @Leased} methods for the auto-configuration tests.
 *
 * @author Lease contributors
 */
public class LeasedJobs {

	private final LeaseHost host;

	public LeasedJobs(LeaseHost host) {
		this.host = host;
	}

	/**
	 * Run under a lease on the given key and answer the grant that stood on it meanwhile.
	 * @param key the key
	 * @return the grant
	 */
	@Leased(key = "#key", duration = "30s")
	public Lease standing(String key) {
		LeaseKey leaseKey = LeaseKey.of(key);
		List<Lease> grants = this.host.grants(10_000);
		return grants.stream().filter((lease) -> lease.key().equals(leaseKey)).findFirst().orElseThrow();
	}

	/**
	 * Run under a lease shorter than the call, so that its release is an overrun.
	 * @param key the key
	 * @return a value
	 */
	@Leased(key = "#key", duration = "200ms")
	public String overrun(String key) {
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.host.grants(10_000).stream().noneMatch((lease) -> lease.key().equals(LeaseKey.of(key))));
		return "done";
	}

}
