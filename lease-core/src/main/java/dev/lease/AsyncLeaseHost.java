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

package dev.lease;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import org.jspecify.annotations.Nullable;

/**
 * The five questions of a {@link LeaseHost}, answered without holding the caller's
 * thread: each returns at once with a future that the host completes with exactly the
 * answer, or the exception, that the blocking question would give (same rules, same
 * arrival order, same state model). A host returns its own from
 * {@link LeaseHost#async()}.
 * <p>
 * The JDK's {@link CompletableFuture} rather than a reactive type, because the atom
 * depends on nothing beyond the JDK: Reactor's {@code Mono.fromFuture} and Kotlin's
 * {@code await()} adapt it without a thread, and cancellation travels both ways.
 * <p>
 * Rules every implementation keeps:
 * <ul>
 * <li>bad arguments complete the future with {@link IllegalArgumentException} and take
 * nothing; a failure of the host completes it with {@link LeaseHostException};</li>
 * <li>a take whose future is cancelled (or completed by anyone but the host) before it
 * answered is withdrawn, as an interrupted blocking take is: nothing stands for the
 * caller afterwards, and a grant handed to it at that moment is released;</li>
 * <li>a release, try take, remaining or grants never waits behind waiting takes, for a
 * thread or a connection;</li>
 * <li>futures may complete on a host's own thread (an I/O or wake-up thread): a dependent
 * stage that blocks should move to an executor of its own.</li>
 * </ul>
 *
 * @author Lease contributors
 * @since 0.1.0
 * @see LeaseHost#async()
 */
public interface AsyncLeaseHost {

	/**
	 * Take the key, waiting for it to become free, as {@link LeaseHost#take} does; the
	 * wait holds no thread on a host that waits natively.
	 * @param key the key
	 * @param holder the holder asking
	 * @param duration the term asked for
	 * @return {@link Taken} or {@link Unavailable}; completes exceptionally with
	 * {@link ReentrantTakeException} when the holder already holds or waits for the key
	 */
	CompletableFuture<TakeResult> take(LeaseKey key, LeaseHolder holder, Duration duration);

	/**
	 * Take the key if it is free now, as {@link LeaseHost#tryTake} does.
	 * @param key the key
	 * @param holder the holder asking
	 * @param duration the term asked for
	 * @return {@link Taken} or {@link Held}
	 */
	CompletableFuture<TryTakeResult> tryTake(LeaseKey key, LeaseHolder holder, Duration duration);

	/**
	 * Answer the remaining term of the asking holder's grant, as
	 * {@link LeaseHost#remaining} does.
	 * @param key the key
	 * @param holder the asking party
	 * @return the remaining term, or empty when the asking party is not the holder
	 */
	CompletableFuture<Optional<Duration>> remaining(LeaseKey key, LeaseHolder holder);

	/**
	 * End the asking holder's grant, as {@link LeaseHost#release} does.
	 * @param key the key
	 * @param holder the asking party
	 * @return {@link Released} or {@link NotHeld}
	 */
	CompletableFuture<ReleaseResult> release(LeaseKey key, LeaseHolder holder);

	/**
	 * List one page of the grants that stand, as {@link LeaseHost#grants(String, int)}
	 * does.
	 * @param cursor {@code null} for the first page, else the {@code next} of the page
	 * before
	 * @param limit the most grants to list in the page, positive
	 * @return the page
	 */
	CompletableFuture<GrantsPage> grants(@Nullable String cursor, int limit);

	/**
	 * Return the host's non-blocking view, or its questions answered on threads of their
	 * own ({@link #onThreads(LeaseHost)}) when it has none to give: a proxy or a mock of
	 * {@link LeaseHost} may answer {@code null} or refuse with
	 * {@link UnsupportedOperationException}, and works all the same.
	 * @param host the host
	 * @return its non-blocking view
	 * @since 0.1.0
	 */
	static AsyncLeaseHost of(LeaseHost host) {
		try {
			AsyncLeaseHost view = host.async();
			if (view != null) {
				return view;
			}
		}
		catch (UnsupportedOperationException ex) {
			// a proxy or a mock that does not answer it
		}
		return onThreads(host);
	}

	/**
	 * Answer a blocking host's questions on threads of their own: each question starts a
	 * thread, a daemon that ends with it, so that no take waits for a thread behind
	 * another take and a release never waits behind takes. What a host without a native
	 * way of waiting, given no executor, answers from {@link LeaseHost#async()}; see
	 * {@link #onThreads(LeaseHost, Executor)} for the rest.
	 * @param host the blocking host
	 * @return its questions, answered off the caller's thread
	 */
	static AsyncLeaseHost onThreads(LeaseHost host) {
		return onThreads(host, ThreadedAsyncLeaseHost.threadPerTask());
	}

	/**
	 * Answer a blocking host's questions on the executor's threads: each take waits on a
	 * thread of its own for the whole wait, so the executor must start each task without
	 * waiting for another to end (a thread per task, such as virtual threads, or an
	 * unbounded pool); a bounded pool would queue takes behind takes, and a release
	 * behind them. A cancelled take interrupts its thread, which withdraws it, and the
	 * cancelling thread waits for that withdrawal (on a remote store, one round trip), so
	 * that nothing stands for the caller once {@code cancel} returns. The executor is the
	 * caller's: nothing here shuts it down.
	 * @param host the blocking host
	 * @param executor runs the questions
	 * @return its questions, answered off the caller's thread
	 * @since 0.1.0
	 */
	static AsyncLeaseHost onThreads(LeaseHost host, Executor executor) {
		return new ThreadedAsyncLeaseHost(host, executor);
	}

}
