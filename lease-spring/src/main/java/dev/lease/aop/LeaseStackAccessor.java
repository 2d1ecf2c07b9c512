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

import java.util.List;

import io.micrometer.context.ThreadLocalAccessor;
import org.jspecify.annotations.Nullable;

import dev.lease.Lease;
import dev.lease.template.LeaseStack;

/**
 * The grants bound to a thread ({@link LeaseStack}) as Micrometer's context propagation
 * sees them, under the key a leased reactive call carries them by in its subscriber
 * context ({@link ReactorLeases}). Registered through {@code ServiceLoader}, so that
 * Reactor's automatic context propagation
 * ({@code Hooks.enableAutomaticContextPropagation()}, Spring Boot's
 * {@code spring.reactor.context-propagation=auto}) binds a leased pipeline's grants on
 * whatever thread its operators run, and a plain {@code @Fenced} call in a {@code map}
 * after {@code publishOn} or a timer finds them.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseStackAccessor implements ThreadLocalAccessor<List<Lease>> {

	@Override
	public Object key() {
		return ReactorLeases.KEY;
	}

	@Override
	public @Nullable List<Lease> getValue() {
		List<Lease> bound = LeaseStack.bound();
		return bound.isEmpty() ? null : bound;
	}

	@Override
	public void setValue(List<Lease> leases) {
		LeaseStack.rebind(leases);
	}

	@Override
	public void setValue() {
		LeaseStack.rebind(List.of());
	}

}
