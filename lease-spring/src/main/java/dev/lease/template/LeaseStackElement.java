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

import java.util.ArrayList;
import java.util.List;

import kotlin.coroutines.AbstractCoroutineContextElement;
import kotlin.coroutines.CoroutineContext;
import kotlinx.coroutines.ThreadContextElement;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

import dev.lease.Lease;

/**
 * The grants a Kotlin coroutine holds through leased calls, carried in its
 * {@link CoroutineContext} and bound to the {@link LeaseStack} of whichever thread the
 * coroutine runs on, for as long as it runs there: a {@code @Fenced} call inside a leased
 * {@code suspend} function mints its fence from the grant after any suspension, and a
 * take on a key the coroutine holds is refused as reentrant. Loaded only with
 * kotlinx-coroutines on the class path.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseStackElement extends AbstractCoroutineContextElement
		implements ThreadContextElement<List<Lease>> {

	/**
	 * The key of the element in a coroutine context.
	 */
	public static final CoroutineContext.Key<LeaseStackElement> KEY = new CoroutineContext.Key<>() {
	};

	private final List<Lease> leases;

	private LeaseStackElement(List<Lease> leases) {
		super(KEY);
		this.leases = leases;
	}

	/**
	 * Return an element carrying the grants the given context carries and, innermost, the
	 * given grant. Binding does not take anything: the caller must hold the grant.
	 * @param context the context of the coroutine the grant is taken in
	 * @param lease the grant
	 * @return the element to add to the context the work under the grant runs in
	 */
	public static LeaseStackElement with(CoroutineContext context, Lease lease) {
		Assert.notNull(lease, "'lease' must not be null");
		LeaseStackElement outer = (context != null) ? context.get(KEY) : null;
		List<Lease> leases = new ArrayList<>((outer != null) ? outer.leases : List.of());
		leases.add(lease);
		return new LeaseStackElement(List.copyOf(leases));
	}

	/**
	 * Return the innermost grant the element carries.
	 * @return the grant
	 */
	public Lease innermost() {
		return this.leases.get(this.leases.size() - 1);
	}

	// The coroutine resumes on this thread: its grants are bound here until it suspends.
	@Override
	public List<Lease> updateThreadContext(CoroutineContext context) {
		for (Lease lease : this.leases) {
			LeaseStack.push(lease);
		}
		return this.leases;
	}

	@Override
	public void restoreThreadContext(CoroutineContext context, @Nullable List<Lease> bound) {
		for (int i = this.leases.size() - 1; i >= 0; i--) {
			LeaseStack.pop(this.leases.get(i));
		}
	}

	@Override
	public String toString() {
		return "LeaseStackElement " + this.leases;
	}

}
