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

package dev.lease.autoconfigure;

/**
 * Leases could not be configured: no {@link dev.lease.LeaseHost} was available, or more
 * than one was and none is primary.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class NoLeaseHostException extends LeaseConfigurationException {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an exception.
	 * @param message what is wrong
	 * @param action what to do about it
	 */
	public NoLeaseHostException(String message, String action) {
		super(message, action);
	}

}
