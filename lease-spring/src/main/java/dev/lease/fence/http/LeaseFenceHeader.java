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

package dev.lease.fence.http;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

import dev.lease.Fence;

/**
 * The {@value #NAME} HTTP header: a fence instant as an RFC 3339 timestamp in UTC, for
 * example {@code 2026-11-30T08:37:13.250Z}. The request carries only the fence, never an
 * effect instant: the server judges the fence on its own clock (Fence 4, 10).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseFenceHeader {

	/**
	 * Name of the header.
	 */
	public static final String NAME = "Lease-Fence";

	private LeaseFenceHeader() {
	}

	/**
	 * Format a fence as the header's value.
	 * @param fence the fence
	 * @return the RFC 3339 value
	 */
	public static String format(Fence fence) {
		return DateTimeFormatter.ISO_INSTANT.format(fence.instant());
	}

	/**
	 * Parse the header's value.
	 * @param value the RFC 3339 value, with {@code Z} or an offset
	 * @return the fence instant
	 * @throws IllegalArgumentException if the value is not an RFC 3339 timestamp
	 */
	public static Instant parse(String value) {
		try {
			return OffsetDateTime.parse(value.trim(), DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
		}
		catch (DateTimeParseException ex) {
			throw new IllegalArgumentException("'" + NAME + "' must be an RFC 3339 timestamp, but was '" + value + "'",
					ex);
		}
	}

}
