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

/**
 * A holder asked to take a key it already holds, or is already waiting for. Reentrancy is
 * a caller error, not a supported nesting; the standing grant is left exactly as it was,
 * its instant not moved (Non-goal 1, 2).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class ReentrantTakeException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an exception for a holder that asked for a key it already holds or waits
	 * for.
	 * @param key the key
	 * @param holder the holder
	 */
	public ReentrantTakeException(LeaseKey key, LeaseHolder holder) {
		super("Holder '" + holder + "' already holds or waits for key '" + key
				+ "'; a lease is not reentrant: release it first, or use another holder");
	}

}
