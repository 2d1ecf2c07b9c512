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

package dev.lease.tck.history;

import org.jspecify.annotations.Nullable;

/**
 * How a {@link HistoryChecker} judges a call an interrupt reached. In both modes a take
 * that threw {@link InterruptedException} gave up: it may have held the key between its
 * call and its return and not after (Host semantics).
 *
 * @author Lease contributors
 */
enum InterruptMode {

	/**
	 * A {@link dev.lease.LeaseHostException} caused by an interrupt is an unknown
	 * outcome, like any other host failure.
	 */
	UNKNOWN,

	/**
	 * An interrupted call answers or throws {@link InterruptedException}, or, a take
	 * whose withdrawal is not yet written, a {@link dev.lease.LeaseHostException} whose
	 * cause is the interrupt; any other failure carrying an interrupt is a violation.
	 * Either way the call is judged as having given up.
	 */
	KNOWN;

	// A failure whose outcome is unknown: a lost connection, and an interrupt only when
	// interrupts are not known.
	boolean unknown(Event event) {
		return event.outcomeUnknown() && !(this == KNOWN && event.failedByInterrupt());
	}

	boolean gaveUp(Event event) {
		return event.interrupted() || (this == KNOWN && event.failedByInterrupt());
	}

	// Host: interruption: failing with LeaseHostException leaves the call's outcome, and
	// maybe a grant, to nobody; but for the one form the host documents, the interrupt as
	// the failure's cause while the withdrawal goes on, judged as having given up.
	@Nullable String violation(Event event) {
		return (this == KNOWN && event.failedByInterrupt() && !event.interruptedWithdrawing())
				? "Host: interruption: an interrupted call failed with LeaseHostException instead of answering"
						+ " or throwing InterruptedException: " + event
				: null;
	}

}
