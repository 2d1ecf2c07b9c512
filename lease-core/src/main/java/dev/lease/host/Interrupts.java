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

/**
 * How a host tells an interrupt from a failure of its store: a client library reports an
 * interrupted wait (for a pooled connection, for an answer) as its own exception, with
 * the {@link InterruptedException} somewhere among its causes. An interrupt has a known
 * outcome and must be answered as one; a failure of the store has not (Host semantics).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class Interrupts {

	private Interrupts() {
	}

	/**
	 * Return whether the given failure was caused by an interrupt.
	 * @param failure the failure a store call ended with
	 * @return whether an {@link InterruptedException} is among its causes
	 */
	public static boolean causedByInterrupt(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InterruptedException) {
				return true;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

}
