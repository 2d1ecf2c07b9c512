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

package dev.lease.host.inmemory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import dev.lease.LeaseKey;

/**
 * The in-memory host's stored keys: hash maps for the questions, in a fixed number of
 * stripes chosen by the key's hash so that a page can be read in one order without
 * keeping every key sorted. Free keys leave it: a released one at once, so a take and a
 * release on a free key insert and remove an entry each time (in a hash map a few stores,
 * in a sorted map a search and relinking among every stored key, contended by every
 * thread); one whose grant passed, on the takes' clean-up walk.
 * <p>
 * The order of a pass is by stripe, then by key within a stripe. A page sorts only the
 * stripes it reaches, so a page of {@code limit} costs the sort of about
 * {@code limit + stored / STRIPES} keys, not of all of them.
 *
 * @author Lease contributors
 */
final class KeyTable {

	private static final int STRIPE_BITS = 8;

	private static final int STRIPES = 1 << STRIPE_BITS;

	private final List<ConcurrentHashMap<LeaseKey, KeyState>> stripes = Stream
		.generate(ConcurrentHashMap<LeaseKey, KeyState>::new)
		.limit(STRIPES)
		.toList();

	// How many steps of the clean-up walk each take runs: each looks at one stored key or
	// moves on to the next stripe.
	private static final int CLEAN_UP_STEPS = 4;

	private final ReentrantLock cleanUpLock = new ReentrantLock();

	// The clean-up walk, guarded by the clean-up lock.
	private int walkStripe;

	private @Nullable Iterator<KeyState> walk;

	// The top bits of a multiplicative hash: the maps index by the low bits, which
	// would otherwise be the same for every key of a stripe.
	private static int stripe(LeaseKey key) {
		return (key.hashCode() * 0x9E3779B9) >>> (Integer.SIZE - STRIPE_BITS);
	}

	private ConcurrentHashMap<LeaseKey, KeyState> stripeOf(LeaseKey key) {
		return this.stripes.get(stripe(key));
	}

	// Remove the key's state if it is free at the reading; its lock is held. A thread
	// that
	// locks it afterwards looks the key up again.
	void retireIfFree(KeyState state, long reading) {
		if (!state.retired && state.isFree(reading)) {
			state.retired = true;
			stripeOf(state.key).remove(state.key, state);
		}
	}

	// Look at a few stored keys and remove those whose grant passed with nobody waiting.
	// Removing them changes no answer: a passed grant is read as free either way. The
	// reading is the take's own, so the clean-up reads no clock of its own.
	void cleanUpSome(long reading) {
		if (!this.cleanUpLock.tryLock()) {
			return;
		}
		try {
			for (int i = 0; i < CLEAN_UP_STEPS; i++) {
				KeyState state = walk();
				if (state != null && state.lock.tryLock()) {
					try {
						retireIfFree(state, reading);
					}
					finally {
						state.lock.unlock();
					}
				}
			}
		}
		finally {
			this.cleanUpLock.unlock();
		}
	}

	// Every stored key, in no order; a key stored or removed meanwhile may be missed.
	void forEach(Consumer<KeyState> action) {
		this.stripes.forEach((stripe) -> stripe.values().forEach(action));
	}

	int size() {
		return this.stripes.stream().mapToInt(Map::size).sum();
	}

	/**
	 * Return the stored keys that come after the cursor in the pass order, the first
	 * {@code limit} of them, in that order. Fewer than {@code limit} means none is left:
	 * a key stored throughout the call is among them or after the last of them.
	 * @param cursor the last key of the page before, or {@code null} for the first page
	 * @param limit the most keys to return
	 * @return the keys' states, in pass order
	 */
	List<KeyState> after(@Nullable LeaseKey cursor, int limit) {
		List<KeyState> page = new ArrayList<>();
		int first = (cursor != null) ? stripe(cursor) : 0;
		for (int i = first; i < STRIPES && page.size() < limit; i++) {
			List<KeyState> inStripe = new ArrayList<>();
			for (KeyState state : this.stripes.get(i).values()) {
				if (cursor == null || i > first || state.key.compareTo(cursor) > 0) {
					inStripe.add(state);
				}
			}
			inStripe.sort(Comparator.comparing((state) -> state.key));
			page.addAll(inStripe.subList(0, Math.min(inStripe.size(), limit - page.size())));
		}
		return page;
	}

	// One step of the clean-up walk, which goes round every stored key: the next key, or
	// null when the step moved on to the next stripe; the clean-up lock is held.
	private @Nullable KeyState walk() {
		if (this.walk != null && this.walk.hasNext()) {
			return this.walk.next();
		}
		this.walkStripe = (this.walkStripe + 1) & (STRIPES - 1);
		ConcurrentHashMap<LeaseKey, KeyState> next = this.stripes.get(this.walkStripe);
		// Most stripes are empty while few keys are stored: no iterator for those.
		this.walk = next.isEmpty() ? null : next.values().iterator();
		return null;
	}

	// Lock the key's state, stored or (if asked) new, which is never null: a state
	// retired meanwhile is looked up again. A look-up first, then put-if-absent:
	// computeIfAbsent would lock the bin and allocate a reservation node for every key
	// it adds.
	@Nullable KeyState lock(LeaseKey key, boolean orNew) {
		ConcurrentHashMap<LeaseKey, KeyState> stripe = stripeOf(key);
		while (true) {
			KeyState state = stripe.get(key);
			if (state == null && orNew) {
				KeyState added = new KeyState(key);
				KeyState raced = stripe.putIfAbsent(key, added);
				state = (raced != null) ? raced : added;
			}
			if (state == null) {
				return null;
			}
			state.lock.lock();
			if (!state.retired) {
				return state;
			}
			state.lock.unlock();
		}
	}

}
