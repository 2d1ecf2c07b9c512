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

import java.util.ArrayDeque;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

import dev.lease.Lease;
import dev.lease.LeaseKey;

/**
 * The grants the current thread holds through leased calls, innermost last.
 * {@link LeaseTemplate} (and so {@code @Leased}) binds each grant for the time its work
 * runs on the thread; the {@code @Fenced} interceptor mints its party's fence from the
 * innermost grant, and a take on a key bound here is refused as reentrant before the host
 * is asked.
 * <p>
 * Code that takes a key directly on a {@link dev.lease.LeaseHost} may {@link #bind bind}
 * its grant too, so that {@code @Fenced} calls inside mint from it.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseStack {

	private static final ThreadLocal<ArrayDeque<Lease>> HELD = ThreadLocal.withInitial(ArrayDeque::new);

	private LeaseStack() {
	}

	/**
	 * Bind a grant to the current thread until the returned scope is closed. Binding does
	 * not take anything: the caller must hold the grant.
	 * @param lease the grant
	 * @return the scope to close when the work under the grant ends on this thread
	 */
	public static Scope bind(Lease lease) {
		Assert.notNull(lease, "'lease' must not be null");
		push(lease);
		return new Scope(lease);
	}

	/**
	 * Return the innermost grant bound to the current thread.
	 * @return the grant, or {@code null} outside any leased call
	 */
	public static @Nullable Lease innermost() {
		return HELD.get().peekLast();
	}

	/**
	 * Return whether a grant on the given key is bound to the current thread.
	 * @param key the key
	 * @return whether the thread holds the key through a leased call
	 */
	public static boolean holds(LeaseKey key) {
		for (Lease lease : HELD.get()) {
			if (lease.key().equals(key)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return the grants bound to the current thread, outermost first: what a context
	 * library carries to another thread ({@code LeaseStackAccessor}).
	 * @return the grants, possibly none
	 */
	public static List<Lease> bound() {
		ArrayDeque<Lease> held = HELD.get();
		if (held.isEmpty()) {
			HELD.remove();
			return List.of();
		}
		return List.copyOf(held);
	}

	/**
	 * Bind exactly the given grants to the current thread, outermost first, in place of
	 * those it had: a context library restoring what it carried. Binding does not take
	 * anything: the grants are held by the work that carried them.
	 * @param leases the grants, possibly none
	 */
	public static void rebind(List<Lease> leases) {
		if (leases.isEmpty()) {
			HELD.remove();
		}
		else {
			HELD.set(new ArrayDeque<>(leases));
		}
	}

	// The template pushes and pops around its work without a Scope to allocate.
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

	/**
	 * The binding of one grant, ended by {@link #close()}.
	 */
	public static final class Scope implements AutoCloseable {

		private final Lease lease;

		private Scope(Lease lease) {
			this.lease = lease;
		}

		/**
		 * Unbind the grant from the current thread.
		 */
		@Override
		public void close() {
			pop(this.lease);
		}

	}

}
