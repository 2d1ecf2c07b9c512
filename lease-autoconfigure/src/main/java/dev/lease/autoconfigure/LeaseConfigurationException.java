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

import org.jspecify.annotations.Nullable;

/**
 * Leases could not be configured as the application asked: start-up fails, and the report
 * says what is wrong and what to change.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class LeaseConfigurationException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String description;

	private final String action;

	/**
	 * Create an exception.
	 * @param description what is wrong
	 * @param action what to do about it
	 */
	public LeaseConfigurationException(String description, String action) {
		this(description, action, null);
	}

	/**
	 * Create an exception with a cause.
	 * @param description what is wrong
	 * @param action what to do about it
	 * @param cause the cause, or {@code null}
	 */
	public LeaseConfigurationException(String description, String action, @Nullable Throwable cause) {
		super(description + ". " + action, cause);
		this.description = description;
		this.action = action;
	}

	/**
	 * Apply a property's value, failing with an exception that names the property, the
	 * value and what a usable value looks like when it is refused.
	 * @param property the property's name
	 * @param value the value it was given
	 * @param expected what a usable value looks like
	 * @param apply applies the value, throwing {@link IllegalArgumentException} when it
	 * cannot be used
	 * @since 0.1.0
	 */
	public static void applyProperty(String property, @Nullable Object value, String expected, Runnable apply) {
		try {
			apply.run();
		}
		catch (IllegalArgumentException ex) {
			throw new LeaseConfigurationException(
					"Invalid value '" + value + "' for " + property + ": " + ex.getMessage(),
					"Set " + property + " to " + expected, ex);
		}
	}

	/**
	 * Return what is wrong.
	 * @return the description
	 */
	public String getDescription() {
		return this.description;
	}

	/**
	 * Return what to do about it.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

}
