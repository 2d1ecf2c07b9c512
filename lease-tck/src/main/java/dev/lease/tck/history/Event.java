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

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.Unavailable;

/**
 * One call on a host as a history records it: what was asked, when the call was made and
 * answered (read on the JVM's clock), and the answer or the failure.
 *
 * @param call the operation called
 * @param key the key asked about
 * @param holder the holder asking
 * @param duration the term asked for, for takes
 * @param invokedAt when the call was made
 * @param returnedAt when the answer came back
 * @param answer the answer: a take result, a release result or an optional remaining term
 * @param failure what the call threw instead of answering
 * @author Lease contributors
 * @since 0.1.0
 */
public record Event(Call call, LeaseKey key, LeaseHolder holder, @Nullable Duration duration, Instant invokedAt,
		Instant returnedAt, @Nullable Object answer, @Nullable Throwable failure) {

	/**
	 * Return the grant this event obtained, if it is a take answered taken.
	 * @return the grant
	 */
	public Optional<Lease> grant() {
		return (this.answer instanceof Taken taken) ? Optional.of(taken.lease()) : Optional.empty();
	}

	/**
	 * Return the instant the grant was made at on the host's clock: its instant less the
	 * term asked for.
	 * @return the grant instant, if this event obtained a grant
	 */
	public Optional<Instant> grantedAt() {
		return grant().map((lease) -> lease.expiresAt().minus(this.duration));
	}

	/**
	 * Return whether the call failed with {@link LeaseHostException}, so that the host
	 * may or may not have done what was asked: a take may have granted, a release may
	 * have ended the grant.
	 * @return whether the outcome is unknown
	 */
	public boolean outcomeUnknown() {
		return this.failure instanceof LeaseHostException;
	}

	/**
	 * Return whether the call gave up at an interrupt: it threw
	 * {@link InterruptedException}, so it holds nothing and stands in no queue after it
	 * returned (Host semantics).
	 * @return whether the call was interrupted
	 */
	public boolean interrupted() {
		return this.failure instanceof InterruptedException;
	}

	/**
	 * Return whether the call failed with {@link LeaseHostException} caused by an
	 * {@link InterruptedException}, at any depth, or carrying one as a suppressed
	 * exception of the failure or of any of its causes: an interrupt reported as a host
	 * failure.
	 * @return whether an interrupt failed the call
	 */
	public boolean failedByInterrupt() {
		return (this.failure instanceof LeaseHostException) && carriesInterrupt(this.failure, 0);
	}

	/**
	 * Return whether the call failed with {@link LeaseHostException} whose cause is the
	 * {@link InterruptedException}: an interrupted take whose withdrawal was not written
	 * within the host's patience and goes on (Host: interruption).
	 * @return whether the failure is an interrupt with its withdrawal pending
	 */
	public boolean interruptedWithdrawing() {
		return (this.failure instanceof LeaseHostException) && this.failure.getCause() instanceof InterruptedException;
	}

	private static boolean carriesInterrupt(Throwable failure, int depth) {
		for (Throwable cause = failure; cause != null && depth < 16; cause = cause.getCause(), depth++) {
			if (cause instanceof InterruptedException) {
				return true;
			}
			for (Throwable suppressed : cause.getSuppressed()) {
				if (carriesInterrupt(suppressed, depth + 1)) {
					return true;
				}
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

	boolean released() {
		return this.answer instanceof Released;
	}

	boolean notHeld() {
		return this.answer instanceof NotHeld;
	}

	boolean unavailable() {
		return this.answer instanceof Unavailable;
	}

	@Override
	public String toString() {
		return this.call + "(" + this.key + ", " + this.holder + ((this.duration != null) ? ", " + this.duration : "")
				+ ") " + this.invokedAt + " .. " + this.returnedAt + " -> "
				+ ((this.failure != null) ? this.failure : this.answer);
	}

	/**
	 * The operation an event called.
	 */
	public enum Call {

		/** {@code take}. */
		TAKE,

		/** {@code tryTake}. */
		TRY_TAKE,

		/** {@code remaining}. */
		REMAINING,

		/** {@code release}. */
		RELEASE,

		/**
		 * Not a call: the holder's take on the key was seen queued on the host at some
		 * moment between the event's two readings, as a test read it from the host's
		 * state. It answers nothing and fails with nothing.
		 */
		QUEUED

	}

}
