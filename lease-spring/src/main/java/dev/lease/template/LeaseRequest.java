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

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;

/**
 * What a {@link LeaseTemplate} call takes: a key for a term, optionally under a stable
 * holder, held at least for a while, and named for the log. Immutable; the {@code with…}
 * methods answer a copy.
 *
 * @param key the key to take
 * @param duration the term to ask for; positive, and there is no default (Non-goal 10)
 * @param holder the holder to take it as, or {@code null} for a fresh holder per call,
 * {@code <prefix>/<uuid>}
 * @param holdAtLeast how old the grant must be before it is released: zero releases as
 * soon as the work completes; never negative, never longer than the duration. The age is
 * measured from the take's answer on this JVM's monotonic clock, so the grant is at least
 * that old on any clock when it is released. The release never waits past the grant's
 * instant and never extends the grant: when waiting would reach the instant (a
 * {@code holdAtLeast} equal to the duration always does), the grant is not released at
 * all and its instant ends it. See {@link LeaseTemplate} for how the wait is kept.
 * @param description what runs under the lease, for log messages, or {@code null}
 * @author Lease contributors
 * @since 0.1.0
 */
public record LeaseRequest(LeaseKey key, Duration duration, @Nullable LeaseHolder holder, Duration holdAtLeast,
		@Nullable String description) {

	public LeaseRequest {
		Assert.isTrue(key != null && duration != null && holdAtLeast != null,
				"'key', 'duration' and 'holdAtLeast' must not be null");
		if (duration.isZero() || duration.isNegative()) {
			throw new IllegalArgumentException("'duration' must be positive; there is no default term: " + duration);
		}
		if (holdAtLeast.isNegative()) {
			throw new IllegalArgumentException("'holdAtLeast' must not be negative: " + holdAtLeast);
		}
		if (holdAtLeast.compareTo(duration) > 0) {
			throw new IllegalArgumentException("'holdAtLeast' " + holdAtLeast + " exceeds the duration " + duration
					+ ": a grant is never held past its instant; hold at most the duration");
		}
	}

	/**
	 * Ask for the given key for the given term, under a fresh holder, released as soon as
	 * the work completes.
	 * @param key the key
	 * @param duration the term
	 * @return the request
	 */
	public static LeaseRequest of(LeaseKey key, Duration duration) {
		return new LeaseRequest(key, duration, null, Duration.ZERO, null);
	}

	/**
	 * Ask for the given key, encoded as UTF-8, for the given term.
	 * @param key the key
	 * @param duration the term
	 * @return the request
	 * @see LeaseKey#of(String)
	 */
	public static LeaseRequest of(String key, Duration duration) {
		return of(LeaseKey.of(key), duration);
	}

	/**
	 * Answer a copy taken as the given holder instead of a fresh one per call.
	 * @param holder the stable holder
	 * @return the copy
	 */
	public LeaseRequest withHolder(LeaseHolder holder) {
		return new LeaseRequest(this.key, this.duration, holder, this.holdAtLeast, this.description);
	}

	/**
	 * Answer a copy whose grant is released no younger than the given age.
	 * @param holdAtLeast the shortest age of the grant at its release
	 * @return the copy
	 */
	public LeaseRequest withHoldAtLeast(Duration holdAtLeast) {
		return new LeaseRequest(this.key, this.duration, this.holder, holdAtLeast, this.description);
	}

	/**
	 * Answer a copy that names its work in log messages, such as an overrun's warning.
	 * @param description what runs under the lease
	 * @return the copy
	 */
	public LeaseRequest withDescription(String description) {
		return new LeaseRequest(this.key, this.duration, this.holder, this.holdAtLeast, description);
	}

	String describe() {
		return (this.description != null) ? this.description : "The work under the lease on key '" + this.key + "'";
	}

}
