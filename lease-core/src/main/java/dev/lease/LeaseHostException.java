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
 * A host failed to answer, for example because its server could not be reached. The
 * operation that failed left no half-written state behind.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class LeaseHostException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an exception with the failure that caused it.
	 * @param message what the host was doing
	 * @param cause the failure
	 */
	public LeaseHostException(String message, Throwable cause) {
		super(message, cause);
	}

	/**
	 * Create an exception.
	 * @param message what went wrong
	 */
	public LeaseHostException(String message) {
		super(message);
	}

}
