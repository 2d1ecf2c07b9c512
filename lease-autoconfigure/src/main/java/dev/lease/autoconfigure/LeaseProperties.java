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

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.lease.template.OnOverrun;

/**
 * Configuration properties for leases.
 *
 * @param host Host that keeps the leases. When not set, detected in the order Redis,
 * JDBC, memory; a user-defined LeaseHost bean always wins.
 * @param onOverrun What a leased call does when it outran its term: its release found the
 * grant already ended.
 * @param holderPrefix Prefix of the holder each leased call gets when its annotation
 * names none. When not set, the application name, host name and process id, as
 * "name@host:pid".
 * @author Lease contributors
 * @since 0.1.0
 */
@ConfigurationProperties("lease")
public record LeaseProperties(@Nullable Host host, @DefaultValue("warn") OnOverrun onOverrun,
		@Nullable String holderPrefix) {

	/**
	 * The hosts that auto-configuration can create.
	 */
	public enum Host {

		/**
		 * Redis, through Spring Data Redis: shared by every instance using the server.
		 */
		REDIS,

		/**
		 * A relational database, through Spring JDBC: shared by every instance using the
		 * database.
		 */
		JDBC,

		/**
		 * This JVM's memory: not shared across instances.
		 */
		MEMORY

	}

}
