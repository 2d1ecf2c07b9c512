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

package dev.lease.template;

/**
 * What a leased call does when its release is answered {@link dev.lease.NotHeld}: the
 * work outran its term (Non-goal 11).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public enum OnOverrun {

	/**
	 * Log a warning and count the overrun; the call's own result stands.
	 */
	WARN,

	/**
	 * Log a warning, count the overrun, and throw {@link dev.lease.LeaseExpiredException}
	 * to the caller.
	 */
	FAIL

}
