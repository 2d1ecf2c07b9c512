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

import java.util.Locale;

import dev.lease.LeaseHost;
import dev.lease.host.inmemory.InMemoryLeaseHost;

/**
 * The low-cardinality name of a host, for logs and meter tags: {@code memory},
 * {@code redis}, {@code jdbc}, or the simple class name of any other host.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseHostNames {

	private LeaseHostNames() {
	}

	/**
	 * Return the name of the given host.
	 * @param host the host
	 * @return its name
	 */
	public static String of(LeaseHost host) {
		LeaseHost named = LeaseHostTarget.of(host);
		if (named instanceof InMemoryLeaseHost) {
			return "memory";
		}
		String type = named.getClass().getName();
		if (type.startsWith("dev.lease.host.redis.")) {
			return "redis";
		}
		if (type.startsWith("dev.lease.host.jdbc.")) {
			return "jdbc";
		}
		return named.getClass().getSimpleName().toLowerCase(Locale.ROOT);
	}

}
