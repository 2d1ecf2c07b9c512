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

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseHostException;

/**
 * The parts a host builds once its store has answered: at construction, or at the first
 * call that reaches the store. A start that fails leaves the host unstarted, and the next
 * call tries again; until one succeeds each call throws and nothing is granted. Closed
 * once: a start under way finishes before {@link #close()} closes what it built, and a
 * closed host never starts again, so nothing it would start (a thread, a connection)
 * outlives it.
 *
 * @param <P> the started parts, closed with the host
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LazyStart<P extends AutoCloseable> {

	private final Supplier<P> start;

	private final String closedMessage;

	// A lock, not a monitor, so that a virtual thread starting the host does not pin its
	// carrier while the store answers.
	private final ReentrantLock starting = new ReentrantLock();

	private volatile @Nullable P started;

	private boolean closed;

	/**
	 * Create an unstarted instance.
	 * @param start builds the started parts, throwing if the store does not answer
	 * @param closedMessage the message of the {@link LeaseHostException} that a call to a
	 * host closed before it started throws
	 */
	public LazyStart(Supplier<P> start, String closedMessage) {
		this.start = start;
		this.closedMessage = closedMessage;
	}

	/**
	 * Return the started parts, starting them first if no start has succeeded yet; one
	 * start at a time, so that concurrent first calls build them once.
	 * @return the started parts
	 * @throws LeaseHostException if the host was closed before it started
	 * @throws RuntimeException what a failed start threw
	 */
	public P get() {
		P current = this.started;
		if (current != null) {
			return current;
		}
		this.starting.lock();
		try {
			current = this.started;
			if (current == null) {
				if (this.closed) {
					throw new LeaseHostException(this.closedMessage);
				}
				current = this.start.get();
				this.started = current;
			}
			return current;
		}
		finally {
			this.starting.unlock();
		}
	}

	/**
	 * Return whether a start has succeeded.
	 * @return whether the parts are started
	 */
	public boolean isStarted() {
		return this.started != null;
	}

	/**
	 * Close for good: wait for a start under way, then close the started parts, if any,
	 * once.
	 * @throws LeaseHostException if the parts fail to close with a checked exception
	 */
	public void close() {
		P current;
		this.starting.lock();
		try {
			current = this.closed ? null : this.started;
			this.closed = true;
		}
		finally {
			this.starting.unlock();
		}
		if (current != null) {
			try {
				current.close();
			}
			catch (RuntimeException ex) {
				throw ex;
			}
			catch (Exception ex) {
				throw new LeaseHostException("Could not close the host's started parts", ex);
			}
		}
	}

}
