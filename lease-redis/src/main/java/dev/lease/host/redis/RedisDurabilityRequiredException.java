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

package dev.lease.host.redis;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHostException;

/**
 * Thrown when a host that requires a durable server is built and the server is not known
 * to keep every grant: it is not durable, it does not say, or it could not be reached to
 * ask. The {@link #durability()} says which.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class RedisDurabilityRequiredException extends LeaseHostException {

	private static final long serialVersionUID = 1L;

	private final RedisDurability durability;

	private final boolean reached;

	RedisDurabilityRequiredException(String message, RedisDurability durability, boolean reached,
			@Nullable Throwable cause) {
		super(message);
		if (cause != null) {
			initCause(cause);
		}
		this.durability = durability;
		this.reached = reached;
	}

	/**
	 * Return the durability found at start.
	 * @return the durability and its reason
	 */
	public RedisDurability durability() {
		return this.durability;
	}

	/**
	 * Return whether the server answered: {@code false} when it could not be reached, so
	 * that its durability could not be read at all.
	 * @return whether the server was reached
	 */
	public boolean reached() {
		return this.reached;
	}

}
