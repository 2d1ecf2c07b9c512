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

package dev.lease.host.inmemory;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.lease.Lease;
import dev.lease.LeaseHolder;

/**
 * One thread standing at a take: its bound is the {@code expiresAt} of the grant that
 * stood when it arrived, fixed then and never moved (Invariant 4).
 *
 * @author Lease contributors
 */
final class Waiter {

	final LeaseHolder holder;

	final Duration duration;

	final Instant bound;

	private @Nullable Lease granted;

	Waiter(LeaseHolder holder, Duration duration, Instant bound) {
		this.holder = holder;
		this.duration = duration;
		this.bound = bound;
	}

	void hand(Lease lease) {
		this.granted = lease;
	}

	@Nullable Lease granted() {
		return this.granted;
	}

}
