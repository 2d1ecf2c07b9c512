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

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.lease.AsyncLeaseHost;
import dev.lease.GrantsPage;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.TryTakeResult;

/**
 * A blocking host's questions asked on the caller's thread: each is answered before it
 * returns, with a completed future, or a failed one that holds what the host threw, an
 * {@link InterruptedException} included. It lets a blocking take walk the steps a
 * non-blocking one walks ({@link LeaseTakes}) with no other thread: its wait stays
 * interruptible, and the caller's thread-locals stay its own. Cancelling an answer does
 * nothing: it is in.
 *
 * @author Lease contributors
 */
final class CallersThreadLeaseHost implements AsyncLeaseHost {

	private final LeaseHost host;

	CallersThreadLeaseHost(LeaseHost host) {
		this.host = host;
	}

	@Override
	public CompletableFuture<TakeResult> take(LeaseKey key, LeaseHolder holder, Duration duration) {
		return answered(() -> this.host.take(key, holder, duration));
	}

	@Override
	public CompletableFuture<TryTakeResult> tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
		return answered(() -> this.host.tryTake(key, holder, duration));
	}

	@Override
	public CompletableFuture<Optional<Duration>> remaining(LeaseKey key, LeaseHolder holder) {
		return answered(() -> this.host.remaining(key, holder));
	}

	@Override
	public CompletableFuture<ReleaseResult> release(LeaseKey key, LeaseHolder holder) {
		return answered(() -> this.host.release(key, holder));
	}

	@Override
	public CompletableFuture<GrantsPage> grants(@Nullable String cursor, int limit) {
		return answered(() -> this.host.grants(cursor, limit));
	}

	// Errors too: the step that waits for this answer must run, on this thread, to
	// throw what the host threw.
	private static <T> CompletableFuture<T> answered(Callable<T> question) {
		try {
			return CompletableFuture.completedFuture(question.call());
		}
		catch (Throwable ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

}
