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

package dev.lease.tck;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.jspecify.annotations.Nullable;

import dev.lease.AsyncLeaseHost;
import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.QueuedTakes;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.TryTakeResult;

/**
 * A blocking {@link LeaseHost} that asks every question of a host's
 * {@link LeaseHost#async() non-blocking view} and waits for its future, so that the whole
 * {@link LeaseHostConformanceKit} judges the view: same answers, same arrival order, same
 * failures.
 * <p>
 * A take waits on its future; an interrupt of the waiting thread cancels the future,
 * which withdraws the take, and the take throws {@link InterruptedException} (unless the
 * future had completed by then: its answer is returned with the interrupt flag set
 * again). The other questions never wait for a key: they wait for their answer through an
 * interrupt and set the flag again. A failure that completes a future is thrown as it is;
 * a checked one, which no view should give, as a {@link LeaseHostException}.
 * {@link #grant(LeaseKey)} is not one of the view's questions: the host answers it.
 *
 * <pre class="code">
 * class InMemoryAsyncLeaseHostConformanceTests extends LeaseHostConformanceKit {
 *
 *     private static final LeaseHost HOST = new AsyncLeaseHostAdapter(new InMemoryLeaseHost());
 *
 *     &#64;Override
 *     protected LeaseHost host() {
 *         return HOST;
 *     }
 *
 * }
 * </pre>
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class AsyncLeaseHostAdapter implements LeaseHost {

	private final LeaseHost host;

	private final AsyncLeaseHost view;

	/**
	 * Create an adapter over the given host's non-blocking view.
	 * @param host the host whose {@link LeaseHost#async()} answers the questions
	 */
	public AsyncLeaseHostAdapter(LeaseHost host) {
		if (host == null) {
			throw new IllegalArgumentException("'host' must not be null");
		}
		this.host = host;
		this.view = host.async();
	}

	@Override
	public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
		CompletableFuture<TakeResult> answer = this.view.take(key, holder, duration);
		try {
			return answer.get();
		}
		catch (InterruptedException ex) {
			if (answer.cancel(false)) {
				throw ex;
			}
			// The host answered first: the answer stands, the interrupt is kept.
			TakeResult result = await(answer);
			Thread.currentThread().interrupt();
			return result;
		}
		catch (ExecutionException ex) {
			throw failure(ex);
		}
	}

	@Override
	public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		return await(this.view.tryTake(key, holder, duration));
	}

	@Override
	public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
		return await(this.view.remaining(key, holder));
	}

	@Override
	public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
		return await(this.view.release(key, holder));
	}

	@Override
	public GrantsPage grants(@Nullable String cursor, int limit) {
		return await(this.view.grants(cursor, limit));
	}

	@Override
	public Optional<Lease> grant(LeaseKey key) {
		return this.host.grant(key);
	}

	@Override
	public Optional<QueuedTakes> waiting(LeaseKey key) {
		return this.host.waiting(key);
	}

	@Override
	public Optional<Instant> grantedAt(Lease grant) {
		return this.host.grantedAt(grant);
	}

	@Override
	public AsyncLeaseHost async() {
		return this.view;
	}

	// Wait through interrupts: an interrupt is never a failure, the flag is set again.
	private static <T> T await(CompletableFuture<T> answer) {
		boolean interrupted = false;
		try {
			while (true) {
				try {
					return answer.get();
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
				catch (ExecutionException ex) {
					throw failure(ex);
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private static RuntimeException failure(ExecutionException ex) {
		Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
		if (cause instanceof RuntimeException runtime) {
			return runtime;
		}
		if (cause instanceof Error error) {
			throw error;
		}
		return new LeaseHostException("The non-blocking view failed", cause);
	}

}
