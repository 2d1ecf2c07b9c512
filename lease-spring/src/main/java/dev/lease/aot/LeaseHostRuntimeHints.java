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

package dev.lease.aot;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * {@link RuntimeHintsRegistrar} for the resources the hosts read at run time: the Redis
 * host's Lua script and the JDBC host's schema scripts. Registered in
 * {@code META-INF/spring/aot.factories}, so it applies however a host is created.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class LeaseHostRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources()
			.registerPattern("dev/lease/host/redis/*.lua")
			.registerPattern("dev/lease/host/jdbc/schema-drop-*.sql")
			.registerPattern("dev/lease/host/jdbc/migration/*/V*__*.sql");
	}

}
