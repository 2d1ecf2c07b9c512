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

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A call retried while the key's cluster slot is being moved between two masters. Redis
 * answers {@code TRYAGAIN} to a script whose declared keys are split between the source
 * and the target (the lease's key moved, its queue not yet), and {@code ASK} or
 * {@code MOVED} where the client does not follow them itself (Lettuce and Jedis do, up to
 * their own limit of redirections); {@code lease.lua} answers {@code TRYAGAIN} itself to
 * a call that would write while the four keys are together on a master whose slot moves,
 * before its first write. None of these wrote anything, so asking again is safe; it is
 * asked again, after a pause that grows to {@value #LONGEST_PAUSE_MILLIS} ms, until the
 * call's window ends, and then the last refusal is thrown.
 * <p>
 * {@link LettuceAsyncLeaseHost} asks again with the same pauses and windows, on its timer
 * thread rather than on a sleeping caller.
 * <p>
 * An interrupt does not end the pauses: the caller's rule is that a call answers (see
 * {@link RedisCalls}); the interrupt flag is set again once it has.
 *
 * @author Lease contributors
 */
final class RedisMigrations {

	static final long FIRST_PAUSE_MILLIS = 5;

	private static final long LONGEST_PAUSE_MILLIS = 100;

	private RedisMigrations() {
	}

	static <T> T retry(long windowNanos, Supplier<T> call) {
		long deadline = System.nanoTime() + windowNanos;
		long pause = FIRST_PAUSE_MILLIS;
		boolean interrupted = false;
		try {
			while (true) {
				try {
					return call.get();
				}
				catch (RuntimeException ex) {
					long left = deadline - System.nanoTime();
					if (!isMigrating(ex) || left <= 0) {
						throw ex;
					}
					LockSupport.parkNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(pause)));
					interrupted |= Thread.interrupted();
					pause = nextPause(pause);
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	// The pause after the given one: twice as long, up to the longest.
	static long nextPause(long pauseMillis) {
		return Math.min(pauseMillis * 2, LONGEST_PAUSE_MILLIS);
	}

	// Redis's refusals of a command whose slot is being moved, as the client passes them
	// on (Spring wraps the client's exception, which carries Redis's error text).
	static boolean isMigrating(Throwable ex) {
		return RedisCalls.anyMessage(ex, (message) -> message.startsWith("TRYAGAIN") || message.startsWith("ASK ")
				|| message.startsWith("MOVED "));
	}

}
