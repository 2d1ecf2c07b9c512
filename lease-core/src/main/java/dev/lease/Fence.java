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

/**
 * An instant handed to a third party as a deadline: refuse this holder's work if it would
 * take effect after this instant (Fence 3). Minted from a grant's {@code expiresAt} with
 * the fenced party's allowance subtracted (Fence 5, Invariant 6.1), so the fenced party
 * compares it bare on its own clock (Fence 4, 6).
 * <p>
 * A fence offers no way to make another fence from itself: a holder fencing a second
 * party mints again from the grant with that party's allowance (Fence 8, 9).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class Fence {

	private final Instant instant;

	private final Duration margin;

	private Fence(Instant instant, Duration margin) {
		this.instant = instant;
		this.margin = margin;
	}

	/**
	 * Mint the fence for one fenced party from a grant (Fence 5, 8).
	 * @param lease the grant whose {@code expiresAt} the fence is minted from
	 * @param allowance the fenced party's declared allowance
	 * @return the fence at {@code expiresAt - allowance}
	 */
	public static Fence mint(Lease lease, Allowance allowance) {
		Checks.notNull(lease, "lease");
		Checks.notNull(allowance, "allowance");
		return new Fence(lease.expiresAt().minus(allowance.value()), allowance.value());
	}

	/**
	 * Return the instant after which the fenced party must refuse the work.
	 * @return the fence instant
	 */
	public Instant instant() {
		return this.instant;
	}

	/**
	 * Return the fence margin, {@code expiresAt - fence}: never less than the allowance
	 * it was minted with (Check 6.1).
	 * @return the margin
	 */
	public Duration margin() {
		return this.margin;
	}

	/**
	 * Judge a work item: admitted when its effect instant, read on the fenced party's own
	 * clock at the moment of judgement, does not follow the fence (Fence 3, 4, 6).
	 * @param effectInstant the fenced party's own reading
	 * @return whether the work may take effect
	 */
	public boolean admits(Instant effectInstant) {
		return !Checks.notNull(effectInstant, "effectInstant").isAfter(this.instant);
	}

	@Override
	public boolean equals(Object obj) {
		return (this == obj) || (obj instanceof Fence other && this.instant.equals(other.instant)
				&& this.margin.equals(other.margin));
	}

	@Override
	public int hashCode() {
		return this.instant.hashCode() * 31 + this.margin.hashCode();
	}

	@Override
	public String toString() {
		return "Fence[" + this.instant + ", margin " + this.margin + "]";
	}

}
