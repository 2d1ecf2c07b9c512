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

package dev.lease.template;

import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

import dev.lease.LeaseKey;
import dev.lease.LeaseUnavailableException;

/**
 * What a {@link LeaseTemplate} call came to: the key was taken (and the work ran, with
 * its value), or it was not (and the work did not run, with the reason). Not being taken
 * is an answer, like {@link dev.lease.Held}, not a failure.
 *
 * @param <T> the type of the work's value
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseOutcome<T> {

	private final LeaseKey key;

	private final @Nullable T value;

	private final @Nullable String reason;

	private LeaseOutcome(LeaseKey key, @Nullable T value, @Nullable String reason) {
		this.key = key;
		this.value = value;
		this.reason = reason;
	}

	/**
	 * The key was taken and the work answered the given value.
	 * @param <T> the type of the value
	 * @param key the key
	 * @param value the work's value
	 * @return the outcome
	 */
	public static <T> LeaseOutcome<T> taken(LeaseKey key, @Nullable T value) {
		return new LeaseOutcome<>(key, value, null);
	}

	/**
	 * The key was not taken, for the given reason; nothing ran.
	 * @param <T> the type of the value the work would have answered
	 * @param key the key
	 * @param reason why, e.g. "it is held by another holder"
	 * @return the outcome
	 */
	public static <T> LeaseOutcome<T> notTaken(LeaseKey key, String reason) {
		Assert.notNull(reason, "'reason' must not be null");
		return new LeaseOutcome<>(key, null, reason);
	}

	/**
	 * Return whether the key was taken, and so the work ran.
	 * @return whether the key was taken
	 */
	public boolean isTaken() {
		return this.reason == null;
	}

	/**
	 * Return the key asked for.
	 * @return the key
	 */
	public LeaseKey key() {
		return this.key;
	}

	/**
	 * Return the work's value.
	 * @return the value, or {@code null} when the key was not taken or the work answered
	 * {@code null}
	 */
	public @Nullable T value() {
		return this.value;
	}

	/**
	 * Return why the key was not taken.
	 * @return the reason, or {@code null} when it was taken
	 */
	public @Nullable String reason() {
		return this.reason;
	}

	/**
	 * Return the work's value, or throw when the key was not taken.
	 * @return the value
	 * @throws LeaseUnavailableException when the key was not taken, naming the key and
	 * the reason
	 */
	public @Nullable T orElseThrow() {
		if (this.reason != null) {
			throw new LeaseUnavailableException(this.key, this.reason);
		}
		return this.value;
	}

	// Why the key was not taken, for a caller that found no value to work with.
	String reasonNotTaken() {
		return (this.reason != null) ? this.reason : "it was not taken";
	}

	@Override
	public String toString() {
		return (this.reason == null) ? "taken '" + this.key + "': " + this.value
				: "not taken '" + this.key + "': " + this.reason;
	}

}
