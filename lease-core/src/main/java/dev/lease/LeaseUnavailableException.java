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
 * A leased call did not get its key: a take answered {@link Unavailable}, a try take
 * answered {@link Held}, or the grant it was handed had already passed its instant. The
 * method did not run.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class LeaseUnavailableException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient LeaseKey key;

	/**
	 * Create an exception for a key that could not be taken.
	 * @param key the key
	 * @param message why the key was not taken
	 */
	public LeaseUnavailableException(LeaseKey key, String message) {
		super("Lease on key '" + Checks.notNull(key, "key") + "' was not taken: " + message);
		this.key = key;
	}

	/**
	 * Return the key that could not be taken.
	 * @return the key
	 */
	public LeaseKey getKey() {
		return this.key;
	}

}
