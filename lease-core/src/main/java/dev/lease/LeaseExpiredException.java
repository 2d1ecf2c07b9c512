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
 * A leased call outran its term: when it released, the host answered {@link NotHeld}, so
 * the grant had already ended at its instant while the work went on (Non-goal 11). Thrown
 * to the caller only when overruns are configured to fail.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class LeaseExpiredException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient Lease lease;

	/**
	 * Create an exception for a grant that ended before its work did.
	 * @param lease the grant that was outrun
	 */
	public LeaseExpiredException(Lease lease) {
		super("Lease on key '" + Checks.notNull(lease, "lease").key() + "' for holder '" + lease.holder()
				+ "' ended at " + lease.expiresAt() + " before the leased call completed");
		this.lease = lease;
	}

	/**
	 * Return the grant that was outrun.
	 * @return the grant
	 */
	public Lease getLease() {
		return this.lease;
	}

}
