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
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The host of leases: holds exactly one lease state per key, free or held by one holder
 * until one instant on the host's own clock (State 1), and answers the four questions of
 * the lease atom against it. A passed instant is read as free at the moment a question is
 * asked; nothing sweeps and nothing records an expiry (State 2, 3).
 * <p>
 * A grant ends at exactly one of its holder's release and its instant, and at no other
 * event: not the holder's death, a partition, a restart, or anyone's judgement (Invariant
 * 2, 3). There is no extend, renew or forced release.
 * <p>
 * Every host checks its arguments before touching its store: keys and holders are never
 * null, durations positive and representable ({@link LeaseDurations}); otherwise
 * {@link IllegalArgumentException} and nothing is taken. A failure of the host itself is
 * a {@link LeaseHostException} and leaves no half-written state.
 * <p>
 * An interrupt of the calling thread is never a failure (Host semantics): every call
 * answers, and the caller finds its interrupt flag set again, or, a take only, throws
 * {@link InterruptedException}, after which nothing stands for the caller: no queued
 * waiter and no grant, a grant made at that moment given back. No host reports an
 * interrupt as a {@link LeaseHostException}.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public interface LeaseHost {

	/**
	 * Take the key, waiting for it to become free (Operation 1) but no longer than the
	 * arrival term: the remaining term of the grant that stood when the caller arrived,
	 * fixed then and never extended (Operation 3, 5; Invariant 4). Waiters are admitted
	 * in arrival order (Non-goal 3); the key goes to a waiter at the instant it becomes
	 * free (Operation 2).
	 * @param key the key
	 * @param holder the holder asking
	 * @param duration the term asked for, chosen by the caller (Non-goal 10)
	 * @return {@link Taken} with the grant's {@code expiresAt} on the host's clock (Fence
	 * 1), or {@link Unavailable} when the waiting term exceeded the arrival term
	 * (Operation 4)
	 * @throws ReentrantTakeException if the holder already holds or waits for the key
	 * (Non-goal 1); the grant is left untouched
	 * @throws InterruptedException if the calling thread was interrupted while waiting,
	 * for the key or for a connection to the host's store; the waiter is withdrawn, and a
	 * grant handed to it at that moment is released
	 */
	TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException;

	/**
	 * Take the key if it is free now, never waiting (Operation 6).
	 * @param key the key
	 * @param holder the holder asking
	 * @param duration the term asked for, chosen by the caller (Non-goal 10)
	 * @return exactly one of {@link Taken} and {@link Held} (Operation 7)
	 * @throws ReentrantTakeException if the holder already holds or waits for the key
	 * (Non-goal 1); the grant is left untouched
	 */
	TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration);

	/**
	 * Answer the remaining term of the asking holder's grant, as the host reads it
	 * (Operation 8). A caller never computes this from a remembered {@code expiresAt} and
	 * its own clock (Operation 10). Writes nothing (Check 5.2).
	 * @param key the key
	 * @param holder the asking party
	 * @return the remaining term, or empty when the asking party is not the holder, a
	 * former holder whose term passed included (Operation 9, Invariant 5)
	 */
	Optional<Duration> remaining(LeaseKey key, LeaseHolder holder);

	/**
	 * End the asking holder's grant (Operation 11), handing the key to the first waiter
	 * whose bound has not passed in the same atomic step. Never reaches another holder's
	 * grant (Operation 13).
	 * @param key the key
	 * @param holder the asking party
	 * @return {@link Released}, or {@link NotHeld} when the asking party is not the
	 * holder, which is an answer, never a failure, and writes nothing (Operation 12, 14;
	 * Check 5.2)
	 */
	ReleaseResult release(LeaseKey key, LeaseHolder holder);

	/**
	 * List one page of the grants that stand, for operators, read at one reading of the
	 * host's clock: each grant listed stands at the page's {@code readAt}, as the host
	 * derives it (a passed grant with waiters is read as handed on), so its remaining
	 * term is {@code expiresAt - readAt} without another question. Writes nothing (Check
	 * 5.2).
	 * <p>
	 * A pass starts with a {@code null} cursor and follows each page's
	 * {@link GrantsPage#next() next} until it is {@code null}. What a pass promises:
	 * <ul>
	 * <li>a grant that stands on its key from the first page's answer to the last is
	 * listed, and in no page more than once;</li>
	 * <li>a key is listed in at most one page of a pass, except on a host that says
	 * otherwise (Redis lists a key again only if Redis shrinks its key table during the
	 * pass: {@code SCAN}'s guarantee);</li>
	 * <li>a key whose grant is taken, released, handed on or passes during the pass is
	 * listed with the grant that stood when its page was read, or not at all if none
	 * stood then;</li>
	 * <li>a page holds at most {@code limit} grants, and may hold fewer, even none, while
	 * {@code next} is not {@code null}.</li>
	 * </ul>
	 * The order of a pass is the host's. A cursor is opaque, belongs to the host that
	 * answered it and stays valid while the host runs.
	 * @param cursor {@code null} for the first page, else the {@code next} of the page
	 * before
	 * @param limit the most grants to list in the page, positive
	 * @return the page
	 * @throws IllegalArgumentException if the limit is not positive or the cursor is not
	 * one this host answered
	 */
	GrantsPage grants(@Nullable String cursor, int limit);

	/**
	 * Answer the grant that stands on one key now, as the host reads it: derived by the
	 * state model, so a passed grant with waiters is read as handed to the first waiter
	 * whose bound has not passed (State 1 to 3). Writes nothing (Check 5.2): like a
	 * non-holder's remaining, the read neither resolves nor saves the key's state.
	 * @param key the key
	 * @return the standing grant, or empty when the key is free
	 */
	Optional<Lease> grant(LeaseKey key);

	/**
	 * Answer when a grant began, for operators, if it still stands: the reading of the
	 * host's clock it was taken at, or the instant the key was freed for the waiter it
	 * was handed to (Grants 8). Writes nothing (Check 5.2).
	 * <p>
	 * The default answers empty: this host keeps no start. It never throws for that
	 * reason.
	 * @param grant a grant read from this host
	 * @return its start on the host's clock; empty when it no longer stands or the host
	 * kept none
	 * @since 0.1.0
	 */
	default Optional<Instant> grantedAt(Lease grant) {
		return Optional.empty();
	}

	/**
	 * Answer how many takes wait for one key now, for operators: a snapshot read at one
	 * reading of the host's clock, stale as soon as it is answered, and never a reason to
	 * take or not. Derived as {@link #grant(LeaseKey)} derives the grant: a waiter that a
	 * passed grant hands the key to is granted, not waiting. Writes nothing (Check 5.2).
	 * This is a host read beside the atom, like {@link #grants(String, int)}; the atom
	 * has no such question.
	 * <p>
	 * The default answers empty: this host cannot tell. It never throws for that reason.
	 * @param key the key
	 * @return how many wait, and since when if the host keeps arrival instants; empty
	 * when the host cannot tell
	 * @since 0.1.0
	 */
	default Optional<QueuedTakes> waiting(LeaseKey key) {
		return Optional.empty();
	}

	/**
	 * The same host, asked without holding the caller's thread: the five questions with
	 * the same answers, each returning a future at once. A host that can wait without a
	 * thread (on its store's asynchronous client and wake-ups) returns its own; this
	 * default answers on threads of their own ({@link AsyncLeaseHost#onThreads}). A
	 * decorator returns a view that decorates the host's own.
	 * @return the non-blocking view of this host
	 * @since 0.1.0
	 */
	default AsyncLeaseHost async() {
		return AsyncLeaseHost.onThreads(this);
	}

	/**
	 * List up to {@code limit} of the grants that stand, following pages from the first:
	 * the answer of {@link #grants(String, int)} pass by pass, stopped at the limit, each
	 * key once.
	 * @param limit the most grants to list, positive
	 * @return at most {@code limit} standing grants, in the host's order
	 */
	default List<Lease> grants(int limit) {
		if (limit <= 0) {
			throw new IllegalArgumentException("'limit' must be positive, but was " + limit);
		}
		Map<LeaseKey, Lease> grants = new LinkedHashMap<>();
		String cursor = null;
		do {
			GrantsPage page = grants(cursor, limit - grants.size());
			for (Lease grant : page.grants()) {
				if (grants.size() < limit) {
					grants.putIfAbsent(grant.key(), grant);
				}
			}
			cursor = page.next();
		}
		while (cursor != null && grants.size() < limit);
		return List.copyOf(grants.values());
	}

}
