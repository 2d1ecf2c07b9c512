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

import kotlin.coroutines.EmptyCoroutineContext;
import kotlinx.coroutines.flow.Flow;
import kotlinx.coroutines.flow.FlowKt;
import org.jspecify.annotations.Nullable;

import dev.lease.Lease;
import dev.lease.template.LeaseStackElement;

/**
 * Leased Kotlin functions returning a {@code Flow} without suspending: the call is leased
 * as a {@code Flux} is ({@link ReactiveLeasedCalls}, through the {@code Flow} adapter of
 * kotlinx-coroutines-reactor), and the {@code Flow} is collected with its grant in a
 * {@link LeaseStackElement}, bound to whichever thread the collection runs on after any
 * suspension, so that {@code @Fenced} calls inside mint their fences from it. Loaded only
 * for such functions.
 *
 * @author Lease contributors
 */
final class FlowLeasedCalls {

	private FlowLeasedCalls() {
	}

	static @Nullable Object collectedUnder(@Nullable Object flow, Lease lease) {
		if (!(flow instanceof Flow<?> collected)) {
			return flow;
		}
		return FlowKt.flowOn(collected, LeaseStackElement.with(EmptyCoroutineContext.INSTANCE, lease));
	}

}
