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

package dev.lease.sample;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the demonstration observed, for the sample's own test.
 *
 * @author Lease contributors
 */
class DemonstrationReport {

	private final AtomicInteger settlements = new AtomicInteger();

	private final AtomicReference<Duration> slowerSettlement = new AtomicReference<>(Duration.ZERO);

	private final AtomicInteger reportsGenerated = new AtomicInteger();

	private final AtomicInteger reportsSkipped = new AtomicInteger();

	private final AtomicInteger lateWritesRefused = new AtomicInteger();

	private final AtomicReference<String> orderTwoSettledBy = new AtomicReference<>("nobody");

	void settlementsFinished(int count, Duration slower) {
		this.settlements.set(count);
		this.slowerSettlement.set(slower);
	}

	void reportRun(boolean generated) {
		(generated ? this.reportsGenerated : this.reportsSkipped).incrementAndGet();
	}

	void lateWriteRefused() {
		this.lateWritesRefused.incrementAndGet();
	}

	void orderTwoSettledBy(String clerk) {
		this.orderTwoSettledBy.set(clerk);
	}

	int settlements() {
		return this.settlements.get();
	}

	Duration slowerSettlement() {
		return this.slowerSettlement.get();
	}

	int reportsGenerated() {
		return this.reportsGenerated.get();
	}

	int reportsSkipped() {
		return this.reportsSkipped.get();
	}

	int lateWritesRefused() {
		return this.lateWritesRefused.get();
	}

	String orderTwoSettledBy() {
		return this.orderTwoSettledBy.get();
	}

}
