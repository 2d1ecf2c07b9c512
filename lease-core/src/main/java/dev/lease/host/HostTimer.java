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
 * The host's clock on this JVM's {@link System#nanoTime() timer}, as last answered: a
 * wake-up that tells a waiter when the standing grant ends on the host's clock (a
 * database's handoff message, a release made here) is turned into the instant the waiter
 * sleeps to, the one clock its {@link Wakeups.Signal} keeps. The reading is taken when an
 * answer is in, so an instant is placed no earlier than the host passes it, and never
 * later than by the answer's trip back.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class HostTimer {

	private volatile long offsetNanos;

	private volatile boolean known;

	/**
	 * Note a reading of the host's clock.
	 * @param hostMicros the host's now in an answer, in microseconds since the epoch
	 * @param nanoTime the {@link System#nanoTime()} when the answer was in
	 */
	public void answered(long hostMicros, long nanoTime) {
		this.offsetNanos = nanoTime - hostMicros * 1000;
		this.known = true;
	}

	/**
	 * Return an instant on the host's clock on this JVM's timer; before any reading, now,
	 * so that a waiter told of it asks at once and learns the instant from its answer.
	 * @param hostMicros the instant, in microseconds since the epoch
	 * @return the instant as a {@link System#nanoTime()} reading
	 */
	public long nanoTime(long hostMicros) {
		return this.known ? hostMicros * 1000 + this.offsetNanos : System.nanoTime();
	}

}
