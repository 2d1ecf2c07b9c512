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

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.lease.template.HeldLease;
import dev.lease.template.LeaseOutcome;
import dev.lease.template.LeaseRequest;
import dev.lease.template.LeaseTemplate;

/**
 * Leased calls that return a Reactor {@code Mono} or {@code Flux}: the key is taken on
 * subscription, on a bounded-elastic thread so that a waiting take never blocks an event
 * loop, and released when the publisher terminates or is cancelled, both through the
 * {@link LeaseTemplate}. Loaded only when Reactor is on the classpath.
 * <p>
 * A reactive call is not bound to a thread, so it is not on the thread's lease stack.
 *
 * @author Lease contributors
 */
final class ReactiveLeasedCalls {

	private ReactiveLeasedCalls() {
	}

	static Object empty(ReturnKind kind) {
		return (kind == ReturnKind.MONO) ? Mono.empty() : Flux.empty();
	}

	static Object lease(LeasedMethodInterceptor interceptor, LeasedOperation operation, LeaseRequest request,
			MethodInvocation invocation) {
		LeaseTemplate template = interceptor.template();
		// A grant that arrives after the subscriber cancelled is discarded: release it.
		Mono<LeaseOutcome<HeldLease>> take = Mono.fromCallable(() -> template.take(request, operation.mode()))
			.subscribeOn(Schedulers.boundedElastic())
			.doOnDiscard(LeaseOutcome.class, (outcome) -> discard(template, outcome));
		Flux<Object> leased = take.flatMapMany((outcome) -> {
			HeldLease held = outcome.value();
			if (held == null) {
				Object skipped = interceptor.unavailable(operation, outcome);
				return (skipped != null) ? Flux.from(publisher(skipped)) : Flux.empty();
			}
			return Flux.usingWhen(Mono.just(held), (lease) -> publisher(proceed(invocation)),
					(lease) -> release(template, lease), (lease, failure) -> release(template, lease),
					(lease) -> release(template, lease));
		});
		return (operation.kind() == ReturnKind.MONO) ? leased.next() : leased;
	}

	private static Mono<Void> release(LeaseTemplate template, HeldLease held) {
		return Mono.<Void>fromRunnable(() -> template.release(held)).subscribeOn(Schedulers.boundedElastic());
	}

	// Nobody is left to hear an overrun of a discarded grant: the template has logged it.
	private static void discard(LeaseTemplate template, LeaseOutcome<?> outcome) {
		if (outcome.value() instanceof HeldLease held) {
			try {
				template.release(held);
			}
			catch (RuntimeException ex) {
				// logged by the template
			}
		}
	}

	private static @Nullable Object proceed(MethodInvocation invocation) {
		try {
			return invocation.proceed();
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex);
		}
	}

	@SuppressWarnings("unchecked")
	private static Publisher<Object> publisher(@Nullable Object value) {
		return (value != null) ? (Publisher<Object>) value : Mono.empty();
	}

}
