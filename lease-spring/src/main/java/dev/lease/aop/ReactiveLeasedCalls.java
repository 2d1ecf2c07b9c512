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

import dev.lease.Lease;
import dev.lease.LeaseExpiredException;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;

/**
 * Leased calls that return a Reactor {@code Mono} or {@code Flux}: the key is taken on
 * subscription, on a bounded-elastic thread so that a waiting take never blocks an event
 * loop, and released when the publisher terminates or is cancelled. Loaded only when
 * Reactor is on the classpath.
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

	static Object lease(LeasedMethodInterceptor interceptor, LeasedOperation operation, LeaseKey key,
			LeaseHolder holder, MethodInvocation invocation) {
		// A grant that arrives after the subscriber cancelled is discarded: release it.
		Mono<Object> take = Mono.fromCallable(() -> interceptor.take(operation, key, holder))
			.subscribeOn(Schedulers.boundedElastic())
			.doOnDiscard(Lease.class, (lease) -> interceptor.release(operation, lease));
		Flux<Object> leased = take.flatMapMany((attempt) -> {
			if (!(attempt instanceof Lease lease)) {
				Object skipped = interceptor.unavailable(operation, key, (String) attempt);
				return (skipped != null) ? Flux.from(publisher(skipped)) : Flux.empty();
			}
			return Flux.usingWhen(Mono.just(lease), (held) -> publisher(proceed(invocation)),
					(held) -> release(interceptor, operation, held),
					(held, failure) -> release(interceptor, operation, held),
					(held) -> release(interceptor, operation, held));
		});
		return (operation.kind() == ReturnKind.MONO) ? leased.next() : leased;
	}

	private static Mono<Void> release(LeasedMethodInterceptor interceptor, LeasedOperation operation, Lease lease) {
		return Mono.<Void>defer(() -> {
			LeaseExpiredException overrun = interceptor.release(operation, lease);
			return (overrun != null) ? Mono.error(overrun) : Mono.empty();
		}).subscribeOn(Schedulers.boundedElastic());
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
