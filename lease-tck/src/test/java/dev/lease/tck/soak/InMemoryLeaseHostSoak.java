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

package dev.lease.tck.soak;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.tck.soak.SoakRun.SoakReport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Soak of {@link InMemoryLeaseHost}.
 *
 * @author Lease contributors
 */
class InMemoryLeaseHostSoak {

	@Test
	@DisplayName("Invariant 1: a soak of mixed operations never has two holders inside one key and leaves nothing standing")
	void soak() throws Exception {
		InMemoryLeaseHost host = new InMemoryLeaseHost();
		SoakReport report = SoakSettings.run().run(host);
		System.out.println(report.line("memory"));
		assertThat(report.overlaps()).isZero();
		assertThat(report.heapAfter() - report.heapBefore()).as("heap growth, bytes").isLessThan(32L << 20);
		assertThat(host.grants(Integer.MAX_VALUE)).noneMatch((lease) -> report.keys().contains(lease.key()));
	}

}
