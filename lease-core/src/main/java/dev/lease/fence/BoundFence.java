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

import dev.lease.Fence;
import dev.lease.LeaseKey;

/**
 * A fence bound to the current call for one fenced party, with the key of the grant it
 * was minted from (for refusal logs) and the application's refusal listener.
 * <p>
 * The listener travels with the fence so that a fenced party built without a listener of
 * its own ({@code new FencedJdbcTemplate(dataSource, "orders-db")}) still reports its
 * refusals to the application, with no global state: the binding is the one thing every
 * fenced write under a {@code @Fenced} call already reads.
 *
 * @param party the fenced party the fence was minted for
 * @param key the key of the grant the fence was minted from
 * @param fence the fence, minted from the grant with the party's allowance
 * @param listener told of a refusal by a fenced party that has no listener of its own
 * @author Lease contributors
 * @since 0.1.0
 */
public record BoundFence(String party, LeaseKey key, Fence fence, FenceRefusalListener listener) {

	public BoundFence {
		if (party == null || party.isEmpty()) {
			throw new IllegalArgumentException("'party' must not be empty");
		}
		if (key == null) {
			throw new IllegalArgumentException("'key' must not be null");
		}
		if (fence == null) {
			throw new IllegalArgumentException("'fence' must not be null");
		}
		FenceRefusals.requireListener(listener);
	}

	/**
	 * Create a bound fence that carries no refusal listener.
	 * @param party the fenced party the fence was minted for
	 * @param key the key of the grant the fence was minted from
	 * @param fence the fence, minted from the grant with the party's allowance
	 */
	public BoundFence(String party, LeaseKey key, Fence fence) {
		this(party, key, fence, FenceRefusalListener.NONE);
	}

}
