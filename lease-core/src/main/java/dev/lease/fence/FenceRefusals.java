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

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

import org.jspecify.annotations.Nullable;

import dev.lease.FenceExpiredException;

/**
 * Reports a refusal: one DEBUG line with key, party and margin, then the listener. Every
 * fenced party reports through here, whichever artifact it lives in.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class FenceRefusals {

	// The JDK's logger: lease-core depends on nothing but JSpecify. Spring Boot routes it
	// to its logging system like any java.util.logging output.
	private static final Logger logger = System.getLogger(FenceRefusals.class.getName());

	private FenceRefusals() {
	}

	/**
	 * Describe a refusal in one line: party, key, margin, fence, reading and lateness.
	 * @param refusal the refusal
	 * @return the line
	 */
	public static String describe(FenceRefusal refusal) {
		return "Fence refused: party '" + refusal.party() + "', key "
				+ ((refusal.key() != null) ? refusal.key() : "unknown") + ", margin "
				+ ((refusal.margin() != null) ? refusal.margin() : "unknown") + ", fence " + refusal.fence()
				+ ", reading " + ((refusal.reading() != null) ? refusal.reading() : "unknown") + ", late by "
				+ ((refusal.late() != null) ? refusal.late() : "unknown");
	}

	/**
	 * Return the one listener a fenced party's refusal is reported to: the party's own
	 * when it was built with one, else the application's, carried by the fence bound to
	 * the current thread. Never both, so each refusal is counted once. A party reading a
	 * fence later than the write (a check just before a surrounding transaction commits)
	 * resolves the listener when the write starts, while the fence is still bound.
	 * @param party the fenced party
	 * @param own the listener the party was built with, or {@code null}
	 * @return the listener to tell
	 */
	public static FenceRefusalListener listener(String party, @Nullable FenceRefusalListener own) {
		return (own != null) ? own : FenceBinding.listener(party);
	}

	/**
	 * Check the listener a fenced party is built with, which then hears each of the
	 * party's refusals instead of the application's listener.
	 * @param listener the party's own listener
	 * @return the listener
	 * @throws IllegalArgumentException if the listener is {@code null}
	 */
	public static FenceRefusalListener requireListener(FenceRefusalListener listener) {
		if (listener == null) {
			throw new IllegalArgumentException("'listener' must not be null");
		}
		return listener;
	}

	/**
	 * Log a refusal at DEBUG, tell the listener (a failing listener is logged, never
	 * thrown), and return the exception the fenced party throws.
	 * @param refusal the refusal
	 * @param listener the listener to tell
	 * @return the exception to throw
	 */
	public static FenceExpiredException refused(FenceRefusal refusal, FenceRefusalListener listener) {
		if (logger.isLoggable(Level.DEBUG)) {
			logger.log(Level.DEBUG, describe(refusal));
		}
		try {
			listener.refused(refusal);
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "Fence refusal listener failed for party '" + refusal.party() + "'", ex);
		}
		return new FenceExpiredException(refusal.party(), refusal.fence(), refusal.reading());
	}

}
