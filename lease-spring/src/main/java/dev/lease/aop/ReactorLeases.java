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

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import dev.lease.Lease;
import dev.lease.LeaseKey;

/**
 * The grants a Reactor pipeline holds through leased calls, innermost last, carried in
 * its subscriber context as a Kotlin coroutine carries its grants in a
 * {@link dev.lease.template.LeaseStackElement}: a {@code @Fenced} method returning a
 * {@code Mono} or {@code Flux} mints its fence from the innermost, and a leased call on a
 * key the pipeline holds is refused as reentrant.
 *
 * @author Lease contributors
 */
final class ReactorLeases {

	static final String KEY = ReactorLeases.class.getName();

	private ReactorLeases() {
	}

	static Context with(Context context, Lease lease) {
		List<Lease> leases = new ArrayList<>(leases(context));
		leases.add(lease);
		return context.put(KEY, List.copyOf(leases));
	}

	static @Nullable Lease innermost(ContextView context) {
		List<Lease> leases = leases(context);
		return leases.isEmpty() ? null : leases.get(leases.size() - 1);
	}

	static @Nullable Lease find(ContextView context, LeaseKey key) {
		return leases(context).stream().filter((lease) -> lease.key().equals(key)).findFirst().orElse(null);
	}

	private static List<Lease> leases(ContextView context) {
		return context.getOrDefault(KEY, List.of());
	}

}
