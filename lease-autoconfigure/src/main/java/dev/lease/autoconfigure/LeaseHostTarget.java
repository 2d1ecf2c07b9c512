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

import org.springframework.util.ClassUtils;

import dev.lease.LeaseHost;
import dev.lease.observation.ObservedLeaseHost;

/**
 * The host that answers, inside the {@link ObservedLeaseHost} the observation
 * auto-configuration puts around every {@link LeaseHost} bean. Whatever needs a host's
 * concrete class (its name, its health details, its durability gauge) asks this rather
 * than the bean.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseHostTarget {

	// ObservedLeaseHost is loaded only when Micrometer is: without it no host is one.
	private static final boolean observationPresent = ClassUtils
		.isPresent("io.micrometer.core.instrument.MeterRegistry", LeaseHostTarget.class.getClassLoader())
			&& ClassUtils.isPresent("io.micrometer.observation.ObservationRegistry",
					LeaseHostTarget.class.getClassLoader());

	private LeaseHostTarget() {
	}

	/**
	 * Return the host inside the given one, or the host itself when it is not observed.
	 * @param host a host, observed or not
	 * @return the host that answers
	 */
	public static LeaseHost of(LeaseHost host) {
		return observationPresent ? ObservedLeaseHost.unwrap(host) : host;
	}

}
