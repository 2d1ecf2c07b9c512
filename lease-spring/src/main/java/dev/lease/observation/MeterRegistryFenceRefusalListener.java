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

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import dev.lease.fence.FenceRefusal;
import dev.lease.fence.FenceRefusalListener;

/**
 * Counts {@code lease.fence.refused}, tagged by {@code party}. The key is never a tag: it
 * is unbounded and may be sensitive.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class MeterRegistryFenceRefusalListener implements FenceRefusalListener {

	/**
	 * Name of the counter.
	 */
	public static final String METER_NAME = "lease.fence.refused";

	private final MeterRegistry registry;

	/**
	 * Create a listener counting into the given registry.
	 * @param registry the meter registry
	 */
	public MeterRegistryFenceRefusalListener(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void refused(FenceRefusal refusal) {
		Counter.builder(METER_NAME)
			.description("Work items a fenced party refused because the fence had passed")
			.tag("party", refusal.party())
			.register(this.registry)
			.increment();
	}

}
