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

package dev.lease.host;

import dev.lease.LeaseHostException;

/**
 * A host met a store whose protocol record names a protocol it cannot work beside: its
 * start fails, and every call, until the store's instances speak protocols that work
 * together.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class IncompatibleStoreProtocolException extends LeaseHostException {

	private static final long serialVersionUID = 1L;

	private final transient StoreProtocolReading reading;

	private final String description;

	private final String action;

	IncompatibleStoreProtocolException(StoreProtocolReading reading, String description, String action) {
		super(description + ". " + action);
		this.reading = reading;
		this.description = description;
		this.action = action;
	}

	/**
	 * Return what is wrong: both protocols, and where the record is kept.
	 * @return the description
	 */
	public String description() {
		return this.description;
	}

	/**
	 * Return what to do: finish the deploy, or remove the record once no instance of the
	 * other protocol runs.
	 * @return the action
	 */
	public String action() {
		return this.action;
	}

	/**
	 * Return what the host read: both protocols, and where the record is kept.
	 * @return the reading
	 */
	public StoreProtocolReading reading() {
		return this.reading;
	}

}
