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

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations of an {@link ObservedLeaseHost}: one per operation, each named after
 * it, all with the same low-cardinality keys ({@link LowCardinalityKeyNames}). Keys and
 * holders are never key values: their number is unbounded and they may be sensitive.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public enum LeaseObservationDocumentation implements ObservationDocumentation {

	/**
	 * A take: waits until the key is taken or the wait is over. Outcomes {@code taken},
	 * {@code unavailable}, {@code error}.
	 */
	TAKE("lease.take"),

	/**
	 * A try take: answers at once. Outcomes {@code taken}, {@code held}, {@code error}.
	 */
	TRY_TAKE("lease.try.take"),

	/**
	 * A release. Outcomes {@code released}, {@code not-held}, {@code error}.
	 */
	RELEASE("lease.release"),

	/**
	 * A question for the remaining term of a grant, as the health check asks. Outcomes
	 * {@code held} (the holder holds the key), {@code not-held}, {@code error}.
	 */
	REMAINING("lease.remaining"),

	/**
	 * A listing of the grants that stand, as the actuator endpoint asks. Outcomes
	 * {@code listed}, {@code error}.
	 */
	GRANTS("lease.grants"),

	/**
	 * An exact read of one key's standing grant, as the actuator endpoint asks for one
	 * key. Outcomes {@code held} (a grant stands), {@code free}, {@code error}.
	 */
	GRANT("lease.grant");

	private final String name;

	LeaseObservationDocumentation(String name) {
		this.name = name;
	}

	@Override
	public String getName() {
		return this.name;
	}

	@Override
	public String getContextualName() {
		return this.name.replace('.', ' ');
	}

	@Override
	public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
		return DefaultLeaseObservationConvention.class;
	}

	@Override
	public KeyName[] getLowCardinalityKeyNames() {
		return LowCardinalityKeyNames.values();
	}

	/**
	 * The low-cardinality keys of every lease observation, and so the tag keys of the
	 * timers made from them.
	 */
	public enum LowCardinalityKeyNames implements KeyName {

		/**
		 * The host: {@code redis}, {@code jdbc}, {@code memory}, or the lower-case simple
		 * class name of another host.
		 */
		HOST {
			@Override
			public String asString() {
				return "lease.host";
			}
		},

		/**
		 * How the operation ended, as listed for each operation; {@code unknown} while it
		 * runs.
		 */
		OUTCOME {
			@Override
			public String asString() {
				return "lease.outcome";
			}
		}

	}

}
