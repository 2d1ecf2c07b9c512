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
 * A store call given up before anything was sent, because the caller was interrupted
 * while it waited for a connection: nothing stands for the caller at the store, so a
 * waiter that gives up here has nothing to withdraw but what it was answered before. The
 * one type every host throws for it, so that the waiter's drivers tell it apart from a
 * call whose outcome is unknown.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class GaveUp extends RuntimeException {

	/**
	 * Create the exception.
	 * @param waitingFor what the caller waited for, such as "a Redis connection"
	 */
	public GaveUp(String waitingFor) {
		super("interrupted while waiting for " + waitingFor, null, false, false);
	}

	/**
	 * Return the interrupt to throw, with this exception's message.
	 * @return the interrupt
	 */
	public InterruptedException interrupt() {
		return new InterruptedException(getMessage());
	}

}
