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

import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.core.ReactiveAdapter;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.lease.Lease;
import dev.lease.ReentrantTakeException;
import dev.lease.template.HeldLease;
import dev.lease.template.LeaseOutcome;
import dev.lease.template.LeaseRequest;
import dev.lease.template.LeaseStack;
import dev.lease.template.LeaseTemplate;

/**
 * Leased calls that return a Reactor {@code Mono} or {@code Flux}, a {@code Publisher},
 * or a type Spring's {@link org.springframework.core.ReactiveAdapterRegistry} adapts to
 * one (a Kotlin {@code Flow}, RxJava, Mutiny): the key is taken on subscription through
 * the host's {@link dev.lease.LeaseHost#async() non-blocking view}, so that a waiting
 * take holds no thread and waits in the host's own arrival order, and released through it
 * when the publisher terminates or is cancelled, before the subscriber hears the
 * termination: a multi-value result is held until its last element. Cancelling the
 * subscription while the take waits withdraws the take. Loaded only when Reactor is on
 * the classpath.
 * <p>
 * The method runs when the key is taken, with the grant bound to the thread; its
 * publisher carries the grant in its subscriber context ({@link ReactorLeases}), where a
 * {@code @Fenced} method returning a {@code Mono} or {@code Flux} finds it, and has it
 * bound on each thread that subscribes to it, requests from it or cancels it
 * ({@link LeaseBoundFlux}), where a {@code @Fenced} call its operators make there finds
 * it. A Kotlin {@code suspend} function's coroutine carries its grant too
 * ({@link SuspendingLeasedCalls}), and a plain function's {@code Flow} is collected with
 * it ({@link FlowLeasedCalls}).
 *
 * @author Lease contributors
 */
final class ReactiveLeasedCalls {

	private ReactiveLeasedCalls() {
	}

	static Object empty(ReturnKind kind) {
		return kind.multiValue() ? Flux.empty() : Mono.empty();
	}

	static Object lease(LeasedMethodInterceptor interceptor, LeasedOperation operation, LeaseRequest request,
			MethodInvocation invocation) {
		ReactiveAdapter adapter = operation.adapter();
		Function<HeldLease, @Nullable Object> work = (operation.kind() == ReturnKind.FLOW)
				? (held) -> FlowLeasedCalls.collectedUnder(proceed(invocation), held.lease())
				: (held) -> proceed(invocation);
		Publisher<Object> leased = lease(interceptor, operation, request,
				(adapter != null) ? work.andThen(adapter::toPublisher) : work, !operation.kind().multiValue());
		return (adapter != null) ? adapter.fromPublisher(leased) : leased;
	}

	static Publisher<Object> lease(LeasedMethodInterceptor interceptor, LeasedOperation operation, LeaseRequest request,
			Function<HeldLease, @Nullable Object> work, boolean mono) {
		LeaseTemplate template = interceptor.template();
		// Cancelling the subscription cancels the future, which withdraws the take; a
		// grant that arrives after the subscriber cancelled is discarded: give it back.
		Mono<LeaseOutcome<HeldLease>> take = Mono.deferContextual((context) -> {
			// A pipeline that holds the key would wait for itself until its own instant
			Lease outer = ReactorLeases.find(context, request.key());
			if (outer != null) {
				return Mono.error(new ReentrantTakeException(request.key(), outer.holder()));
			}
			return Mono.fromFuture(() -> inCallerContext(template, template.takeAsync(request, operation.mode()),
					CallerContext.capture(context)), false);
		}).doOnDiscard(LeaseOutcome.class, (outcome) -> discard(template, outcome));
		Function<LeaseOutcome<HeldLease>, Publisher<Object>> leased = (outcome) -> {
			HeldLease held = outcome.value();
			if (held == null) {
				return publisher(interceptor.unavailable(operation, outcome));
			}
			// Mono.usingWhen defers every signal until the release completed
			Function<HeldLease, Mono<Void>> end = (lease) -> release(template, lease);
			BiFunction<HeldLease, Throwable, Mono<Void>> failed = (lease, failure) -> release(template, lease);
			if (mono) {
				return Mono.usingWhen(Mono.just(held), (lease) -> Mono.fromDirect(run(work, lease)), end, failed, end);
			}
			return Flux.usingWhen(Mono.just(held), (lease) -> run(work, lease), end, failed, end);
		};
		return mono ? take.flatMap((outcome) -> Mono.from(leased.apply(outcome))) : take.flatMapMany(leased);
	}

	// A take that waited answers on the thread that woke it: the rest of the call (the
	// method, the subscription to its publisher, what runs synchronously after) goes on
	// with the subscriber's context there, as it would have on the subscribing thread.
	// Cancelling the answer withdraws the take; a grant that nobody can hear is given
	// back.
	private static CompletableFuture<LeaseOutcome<HeldLease>> inCallerContext(LeaseTemplate template,
			CompletableFuture<LeaseOutcome<HeldLease>> taking, CallerContext caller) {
		if (taking.isDone()) {
			return taking;
		}
		CompletableFuture<LeaseOutcome<HeldLease>> answer = new CompletableFuture<>();
		answer.whenComplete((outcome, failure) -> {
			if (answer.isCancelled()) {
				taking.cancel(false);
			}
		});
		taking.whenComplete((outcome, failure) -> caller.run(() -> {
			boolean heard = (failure != null) ? answer.completeExceptionally(failure) : answer.complete(outcome);
			if (!heard && outcome != null) {
				discard(template, outcome);
			}
		}));
		return answer;
	}

	// The method runs with the grant bound, and its publisher carries it.
	private static Flux<Object> run(Function<HeldLease, @Nullable Object> work, HeldLease held) {
		Object result;
		try (LeaseStack.Scope scope = LeaseStack.bind(held.lease())) {
			result = work.apply(held);
		}
		return new LeaseBoundFlux<>(publisher(result), held.lease())
			.contextWrite((context) -> ReactorLeases.with(context, held.lease()));
	}

	// A release is never cancelled: the key is released whatever the subscriber does.
	private static Mono<Void> release(LeaseTemplate template, HeldLease held) {
		return Mono.fromFuture(() -> template.releaseAsync(held), true);
	}

	// Nobody is left to hear an overrun of a discarded grant.
	private static void discard(LeaseTemplate template, LeaseOutcome<?> outcome) {
		if (outcome.value() instanceof HeldLease held) {
			template.releaseAsync(held);
		}
	}

	// Runs once per subscription, and a caller may subscribe again (retry, repeat): each
	// run proceeds on a fresh copy of the invocation, never on the one the interceptor
	// was
	// given, which a second proceed() would take straight to the method, past every
	// advice
	// inside the lease (a reactive transaction among them).
	static @Nullable Object proceed(MethodInvocation invocation) {
		try {
			return (invocation instanceof ProxyMethodInvocation proxied) ? proxied.invocableClone().proceed()
					: invocation.proceed();
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
