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

package dev.lease.aop;

import java.util.ArrayDeque;
import java.util.Iterator;

import org.jspecify.annotations.Nullable;

import dev.lease.Lease;
import dev.lease.LeaseKey;

/**
 * The grants the current thread holds through leased calls, innermost last. The
 * {@code @Leased} interceptor pushes and pops; the {@code @Fenced} interceptor mints its
 * party's fence from the innermost grant.
 *
 * @author Lease contributors
 */
final class LeaseStack {

	private static final ThreadLocal<ArrayDeque<Lease>> HELD = ThreadLocal.withInitial(ArrayDeque::new);

	private LeaseStack() {
	}

	static void push(Lease lease) {
		HELD.get().addLast(lease);
	}

	static void pop(Lease lease) {
		ArrayDeque<Lease> held = HELD.get();
		held.removeLastOccurrence(lease);
		if (held.isEmpty()) {
			HELD.remove();
		}
	}

	static @Nullable Lease innermost() {
		return HELD.get().peekLast();
	}

	static boolean holds(LeaseKey key) {
		Iterator<Lease> leases = HELD.get().iterator();
		while (leases.hasNext()) {
			if (leases.next().key().equals(key)) {
				return true;
			}
		}
		return false;
	}

}
