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

package dev.lease.fence;

import java.util.ArrayDeque;
import java.util.Iterator;

import org.jspecify.annotations.Nullable;

/**
 * The fences bound to the current thread by {@code @Fenced} calls, innermost last. Fenced
 * parties ({@code FencedJdbcTemplate} in lease-jdbc, {@code FencedRedisWrites} in
 * lease-redis, the HTTP client interceptors in lease-spring) read their party's fence
 * here.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class FenceBinding {

	private static final ThreadLocal<ArrayDeque<BoundFence>> BOUND = ThreadLocal.withInitial(ArrayDeque::new);

	private FenceBinding() {
	}

	/**
	 * Bind a fence to the current thread until the returned scope is closed.
	 * @param fence the fence to bind
	 * @return the scope to close when the call ends
	 */
	public static Scope bind(BoundFence fence) {
		if (fence == null) {
			throw new IllegalArgumentException("'fence' must not be null");
		}
		BOUND.get().addLast(fence);
		return new Scope(fence);
	}

	/**
	 * Return the innermost fence bound to the current thread, for any party.
	 * @return the fence, or {@code null} outside any fenced call
	 */
	public static @Nullable BoundFence current() {
		return BOUND.get().peekLast();
	}

	/**
	 * Return the innermost fence bound to the current thread for the given party.
	 * @param party the fenced party
	 * @return the fence, or {@code null} when none is bound for that party
	 */
	public static @Nullable BoundFence current(String party) {
		for (Iterator<BoundFence> fences = BOUND.get().descendingIterator(); fences.hasNext();) {
			BoundFence fence = fences.next();
			if (fence.party().equals(party)) {
				return fence;
			}
		}
		return null;
	}

	/**
	 * Return the refusal listener carried by the fences bound to the current thread: the
	 * one of the innermost fence bound for the given party, else of the innermost fence
	 * bound for any party (each carries the application's listener).
	 * @param party the fenced party
	 * @return the listener, {@link FenceRefusalListener#NONE} outside any fenced call
	 */
	public static FenceRefusalListener listener(String party) {
		BoundFence fence = current(party);
		if (fence == null) {
			fence = current();
		}
		return (fence != null) ? fence.listener() : FenceRefusalListener.NONE;
	}

	/**
	 * Return the innermost fence bound to the current thread for the given party, or
	 * fail.
	 * @param party the fenced party
	 * @return the fence
	 * @throws IllegalStateException when no fence is bound for the party: the write is
	 * not attempted
	 */
	public static BoundFence required(String party) {
		BoundFence fence = current(party);
		if (fence == null) {
			throw new IllegalStateException(missing(party));
		}
		return fence;
	}

	/**
	 * Say why a fenced party has no fence, for a party that reports it later than
	 * {@link #required(String)} would, such as a reactive HTTP client.
	 * @param party the fenced party
	 * @return the message of the failure
	 */
	public static String missing(String party) {
		return "No fence is bound for fenced party '" + party + "' on this thread: call the write from a @Fenced(\""
				+ party + "\") method inside a leased call, or pass the Fence explicitly";
	}

	/**
	 * The binding of one fence, ended by {@link #close()}.
	 */
	public static final class Scope implements AutoCloseable {

		private final BoundFence fence;

		private Scope(BoundFence fence) {
			this.fence = fence;
		}

		/**
		 * Unbind the fence from the current thread.
		 */
		@Override
		public void close() {
			ArrayDeque<BoundFence> bound = BOUND.get();
			bound.removeLastOccurrence(this.fence);
			if (bound.isEmpty()) {
				BOUND.remove();
			}
		}

	}

}
