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

package dev.lease;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a fenced party refused a work item because its fence had passed on that
 * party's own clock (Fence 3, 4). Nothing of the refused work remains at that party.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class FenceExpiredException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String party;

	private final Instant fence;

	private final @Nullable Instant reading;

	/**
	 * Create an exception for a refused work item.
	 * @param party the fenced party that refused the work
	 * @param fence the fence instant the work was carried with
	 * @param reading the fenced party's own clock reading at the judgement, when known
	 */
	public FenceExpiredException(String party, Instant fence, @Nullable Instant reading) {
		super(message(Checks.notNull(party, "party"), Checks.notNull(fence, "fence"), reading));
		this.party = party;
		this.fence = fence;
		this.reading = reading;
	}

	private static String message(String party, Instant fence, @Nullable Instant reading) {
		String message = "Fenced party '" + party + "' refused the work: its fence " + fence + " has passed";
		if (reading != null) {
			message += " on its own clock (reading " + reading + ", late by " + Duration.between(fence, reading) + ")";
		}
		return message;
	}

	/**
	 * Return the fenced party that refused the work.
	 * @return the party name
	 */
	public String getParty() {
		return this.party;
	}

	/**
	 * Return the fence instant the work was carried with.
	 * @return the fence instant
	 */
	public Instant getFence() {
		return this.fence;
	}

	/**
	 * Return the fenced party's own clock reading at the judgement, when known.
	 * @return the reading, or {@code null}
	 */
	public @Nullable Instant getReading() {
		return this.reading;
	}

}
