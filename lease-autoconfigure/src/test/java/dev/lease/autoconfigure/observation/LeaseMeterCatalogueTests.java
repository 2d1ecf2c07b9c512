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

package dev.lease.autoconfigure.observation;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that docs/operations.md lists every meter of the starter, and only those, with
 * the kind its code registers.
 *
 * @author Lease contributors
 */
class LeaseMeterCatalogueTests {

	@Test
	void theMeterTableListsEveryMeterBesideTheObservationsWithItsKind() {
		assertThat(LeaseMeterCatalogue.documented(LeaseMeterCatalogue.METER_TABLE))
			.containsExactlyInAnyOrderEntriesOf(LeaseMeterCatalogue.registered());
	}

	@Test
	void theObservationTableListsEveryObservation() {
		assertThat(LeaseMeterCatalogue.documented(LeaseMeterCatalogue.OBSERVATION_TABLE).keySet())
			.containsExactlyInAnyOrderElementsOf(LeaseMeterCatalogue.observations().keySet());
	}

}
