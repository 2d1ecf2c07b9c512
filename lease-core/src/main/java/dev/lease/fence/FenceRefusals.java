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

package dev.lease.fence;

import java.time.Instant;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.lease.FenceExpiredException;

/**
 * Reports a refusal: one DEBUG line with key, party and margin, then the listener.
 *
 * @author Lease contributors
 */
final class FenceRefusals {

	private static final Log logger = LogFactory.getLog(FenceRefusals.class);

	private FenceRefusals() {
	}

	static String describe(FenceRefusal refusal) {
		return "Fence refused: party '" + refusal.party() + "', key "
				+ ((refusal.key() != null) ? refusal.key() : "unknown") + ", margin "
				+ ((refusal.margin() != null) ? refusal.margin() : "unknown") + ", fence " + refusal.fence()
				+ ", reading " + ((refusal.reading() != null) ? refusal.reading() : "unknown") + ", late by "
				+ ((refusal.late() != null) ? refusal.late() : "unknown");
	}

	static FenceExpiredException refused(FenceRefusal refusal, FenceRefusalListener listener) {
		if (logger.isDebugEnabled()) {
			logger.debug(describe(refusal));
		}
		try {
			listener.refused(refusal);
		}
		catch (RuntimeException ex) {
			logger.warn("Fence refusal listener failed for party '" + refusal.party() + "'", ex);
		}
		Instant reading = refusal.reading();
		return new FenceExpiredException(refusal.party(), refusal.fence(), reading);
	}

}
