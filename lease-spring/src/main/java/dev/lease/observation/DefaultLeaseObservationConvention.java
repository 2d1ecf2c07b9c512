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

import io.micrometer.common.KeyValues;

import dev.lease.observation.LeaseObservationDocumentation.LowCardinalityKeyNames;

/**
 * The default {@link LeaseObservationConvention}: each operation keeps the name
 * {@link LeaseObservationDocumentation} gives it ({@code lease.take},
 * {@code lease.try.take}, {@code lease.release}, {@code lease.remaining},
 * {@code lease.grants}), and every observation has the same two low-cardinality keys,
 * {@code lease.host} and {@code lease.outcome}, and no high-cardinality ones.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class DefaultLeaseObservationConvention implements LeaseObservationConvention {

	/** A shared instance. */
	public static final DefaultLeaseObservationConvention INSTANCE = new DefaultLeaseObservationConvention();

	@Override
	public KeyValues getLowCardinalityKeyValues(LeaseObservationContext context) {
		return KeyValues.of(LowCardinalityKeyNames.HOST.withValue(context.getHostName()),
				LowCardinalityKeyNames.OUTCOME.withValue(context.getOutcome()));
	}

	@Override
	public String getContextualName(LeaseObservationContext context) {
		return context.getOperation().getContextualName();
	}

}
