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

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeaseHostRuntimeHints}, here beside both stores, whose scripts the
 * hints name (lease-spring itself does not depend on them).
 *
 * @author Lease contributors
 */
class LeaseHostRuntimeHintsTests {

	@Test
	void registersTheRedisScriptAndEverySchemaScript() {
		RuntimeHints hints = new RuntimeHints();
		new LeaseHostRuntimeHints().registerHints(hints, getClass().getClassLoader());
		List<String> resources = new ArrayList<>(
				List.of("dev/lease/host/redis/lease.lua", "dev/lease/host/jdbc/schema-drop-h2.sql",
						"dev/lease/host/jdbc/schema-drop-mysql.sql", "dev/lease/host/jdbc/schema-drop-postgresql.sql"));
		for (String platform : List.of("h2", "mysql", "postgresql")) {
			for (String script : List.of("V1__lease_tables.sql", "V2__lease_waiters_indexes.sql",
					"V3__lease_protocol.sql", "V4__lease_waiters_arrived_at.sql", "V5__lease_keys_granted_at.sql")) {
				resources.add("dev/lease/host/jdbc/migration/" + platform + "/" + script);
			}
		}
		for (String resource : resources) {
			assertThat(getClass().getClassLoader().getResource(resource)).as(resource).isNotNull();
			assertThat(RuntimeHintsPredicates.resource().forResource(resource)).as(resource).accepts(hints);
		}
	}

	@Test
	void isRegisteredInAotFactories() {
		assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)).hasAtLeastOneElementOfType(LeaseHostRuntimeHints.class);
	}

}
