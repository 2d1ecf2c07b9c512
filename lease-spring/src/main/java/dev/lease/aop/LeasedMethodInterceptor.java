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

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.expression.AnnotatedElementKey;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.expression.BeanResolver;
import org.springframework.util.Assert;
import org.springframework.util.StringValueResolver;

import dev.lease.LeaseHost;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;
import dev.lease.template.HeldLease;
import dev.lease.template.LeaseOutcome;
import dev.lease.template.LeaseRequest;
import dev.lease.template.LeaseStack;
import dev.lease.template.LeaseTemplate;
import dev.lease.template.OnOverrun;

/**
 * Runs a {@link Leased @Leased} method under its lease through a {@link LeaseTemplate},
 * which takes the key, binds the grant to the thread, releases it and judges an overrun.
 * What is left here is what the annotation adds: its expressions and durations, read once
 * per method, and its result types (what a skipped call returns, and when a
 * {@code CompletionStage}, {@code Mono}, {@code Flux}, {@code Publisher} or Kotlin
 * {@code Flow} result completes: after its last element).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeasedMethodInterceptor implements MethodInterceptor, AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeasedMethodInterceptor.class);

	private final Supplier<LeaseTemplate> templateSupplier;

	private final @Nullable BeanResolver beans;

	private final @Nullable StringValueResolver placeholders;

	private final Map<AnnotatedElementKey, LeasedOperation> operations = new ConcurrentHashMap<>();

	private volatile @Nullable LeaseTemplate template;

	// Where a CompletionStage method runs when its take had to wait: never the thread
	// that answered the take, which may be a host's I/O or wake-up thread that every
	// other waiter needs (AsyncLeaseHost: a dependent stage that may block moves off it).
	private final Executor bodies;

	private final @Nullable SimpleAsyncTaskExecutor ownBodies;

	/**
	 * Create an interceptor that runs leased calls through the given template, and a
	 * {@code CompletionStage} method whose take had to wait on threads of its own, which
	 * {@link #close()} stops.
	 * @param template supplies the template on first use, so that the advisor can be
	 * created before the template and its host
	 * @param beanFactory resolves {@code ${…}} placeholders in durations and
	 * {@code @bean} references in expressions; may be {@code null}
	 */
	public LeasedMethodInterceptor(Supplier<LeaseTemplate> template, @Nullable BeanFactory beanFactory) {
		this(template, null, beanFactory);
	}

	/**
	 * Create an interceptor that runs leased calls through the given template, and a
	 * {@code CompletionStage} method whose take had to wait on the given executor, with
	 * its caller's context: the application's task executor, so that its
	 * {@code TaskDecorator} and thread choice apply.
	 * @param template supplies the template on first use, so that the advisor can be
	 * created before the template and its host
	 * @param bodies runs the methods whose take had to wait; {@code null} for threads of
	 * the interceptor's own, which {@link #close()} stops
	 * @param beanFactory resolves {@code ${…}} placeholders in durations and
	 * {@code @bean} references in expressions; may be {@code null}
	 * @since 0.1.0
	 */
	public LeasedMethodInterceptor(Supplier<LeaseTemplate> template, @Nullable Executor bodies,
			@Nullable BeanFactory beanFactory) {
		Assert.notNull(template, "'template' must not be null");
		this.templateSupplier = template;
		this.ownBodies = (bodies != null) ? null : new SimpleAsyncTaskExecutor("lease-leased-");
		this.bodies = (bodies != null) ? bodies : this.ownBodies;
		this.beans = (beanFactory != null) ? new BeanFactoryResolver(beanFactory) : null;
		this.placeholders = (beanFactory instanceof ConfigurableBeanFactory configurable)
				? configurable::resolveEmbeddedValue : null;
	}

	/**
	 * Create an interceptor with a template of its own over the given host.
	 * @param host supplies the host on first use, so that the advisor can be created
	 * before the host
	 * @param holderPrefix the prefix of the fresh holder each call gets when its
	 * {@code @Leased} names none
	 * @param onOverrun what a call does when it outran its term
	 * @param beanFactory resolves {@code ${…}} placeholders in durations and
	 * {@code @bean} references in expressions; may be {@code null}
	 */
	public LeasedMethodInterceptor(Supplier<LeaseHost> host, String holderPrefix, OnOverrun onOverrun,
			@Nullable BeanFactory beanFactory) {
		this(template(host, holderPrefix, onOverrun), beanFactory);
	}

	private static Supplier<LeaseTemplate> template(Supplier<LeaseHost> host, String holderPrefix,
			OnOverrun onOverrun) {
		Assert.notNull(host, "'host' must not be null");
		Assert.hasText(holderPrefix, "'holderPrefix' must not be empty");
		Assert.notNull(onOverrun, "'onOverrun' must not be null");
		return () -> {
			LeaseHost resolved = host.get();
			Assert.state(resolved != null, "No LeaseHost to take leases on");
			return new LeaseTemplate(resolved, holderPrefix, onOverrun);
		};
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target) : null;
		LeasedOperation operation = operation(invocation.getMethod(), targetClass);
		if (operation == null) {
			return invocation.proceed();
		}
		Object root = (target != null) ? target : operation.method();
		LeaseRequest request = new LeaseRequest(operation.key(root, invocation.getArguments(), this.beans),
				operation.duration(), operation.holder(root, invocation.getArguments(), this.beans),
				operation.holdAtLeast(), operation.description());
		return switch (operation.kind()) {
			case MONO, FLUX, FLOW -> ReactiveLeasedCalls.lease(this, operation, request, invocation);
			case SUSPENDING, SUSPENDING_FLOW -> SuspendingLeasedCalls.lease(this, operation, request, invocation);
			case COMPLETION_STAGE -> stage(operation, request, invocation);
			default -> {
				LeaseOutcome<@Nullable Object> outcome = template().execute(request, operation.mode(),
						(lease) -> invocation.proceed());
				yield outcome.isTaken() ? outcome.value() : unavailable(operation, outcome);
			}
		};
	}

	// Taken through the host's non-blocking view: the caller gets the future at once, and
	// the method runs when the take answers, with the grant bound to it: on the caller's
	// thread when the key was free at once, else on the bodies executor, with the
	// caller's context. The
	// future completes as the method's stage once the key is released
	// (with an overrun under FAIL); a declared type that cannot hold a CompletableFuture
	// is taken on the calling thread and gets its own stage back, released all the same.
	private @Nullable Object stage(LeasedOperation operation, LeaseRequest request, MethodInvocation invocation)
			throws Throwable {
		if (!operation.method().getReturnType().isAssignableFrom(CompletableFuture.class)) {
			return ownStage(operation, request, invocation);
		}
		LeaseTemplate template = template();
		CompletableFuture<@Nullable Object> result = new CompletableFuture<>();
		CompletableFuture<LeaseOutcome<HeldLease>> taking = template.takeAsync(request, operation.mode());
		result.whenComplete((value, failure) -> {
			if (result.isCancelled()) {
				taking.cancel(false);
			}
		});
		Executor where = taking.isDone() ? Runnable::run : CallerContext.capture().onBehalf(this.bodies);
		taking.whenCompleteAsync((outcome, failure) -> {
			if (failure != null) {
				result.completeExceptionally(cause(failure));
				return;
			}
			HeldLease held = outcome.value();
			if (held == null) {
				try {
					unavailable(operation, outcome);
					result.complete(null);
				}
				catch (RuntimeException ex) {
					result.completeExceptionally(ex);
				}
				return;
			}
			// a method that throws fails the result as its failed stage would
			CompletionStage<@Nullable Object> stage;
			try (LeaseStack.Scope scope = LeaseStack.bind(held.lease())) {
				stage = asStage(invocation.proceed());
			}
			catch (Throwable ex) {
				stage = CompletableFuture.failedFuture(ex);
			}
			if (stage == null) {
				stage = CompletableFuture.completedFuture(null);
			}
			stage.whenComplete((value, workFailure) -> template.releaseAsync(held).whenComplete((released, overrun) -> {
				if (workFailure != null) {
					if (overrun != null) {
						workFailure.addSuppressed(cause(overrun));
					}
					result.completeExceptionally(workFailure);
				}
				else if (overrun != null) {
					result.completeExceptionally(cause(overrun));
				}
				else {
					result.complete(value);
				}
			}));
		}, where);
		return result;
	}

	private static Throwable cause(Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

	// The template's future carries an overrun under FAIL; a declared type that cannot
	// hold a CompletableFuture gets its own stage back, released all the same.
	private @Nullable Object ownStage(LeasedOperation operation, LeaseRequest request, MethodInvocation invocation)
			throws Throwable {
		AtomicReference<@Nullable Object> returned = new AtomicReference<>();
		LeaseOutcome<CompletableFuture<@Nullable Object>> outcome = template().executeAsync(request, operation.mode(),
				(lease) -> {
					Object result = invocation.proceed();
					returned.set(result);
					return asStage(result);
				});
		return outcome.isTaken() ? returned.get() : unavailable(operation, outcome);
	}

	@SuppressWarnings("unchecked")
	private static @Nullable CompletionStage<@Nullable Object> asStage(@Nullable Object result) {
		return (result instanceof CompletionStage<?> stage) ? (CompletionStage<@Nullable Object>) stage : null;
	}

	// For an outcome not taken: what a skipped call returns, or the outcome's
	// LeaseUnavailableException.
	@Nullable Object unavailable(LeasedOperation operation, LeaseOutcome<?> outcome) {
		if (operation.onUnavailable() != OnUnavailable.SKIP) {
			return outcome.orElseThrow();
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Skipped " + operation.description() + ": lease on key '" + outcome.key() + "' was not taken, "
					+ outcome.reason());
		}
		return operation.skipped();
	}

	@Nullable LeasedOperation operation(Method method, @Nullable Class<?> targetClass) {
		AnnotatedElementKey cacheKey = new AnnotatedElementKey(method, targetClass);
		LeasedOperation cached = this.operations.get(cacheKey);
		if (cached != null) {
			return cached;
		}
		Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
		Leased leased = AnnotatedElementUtils.findMergedAnnotation(specific, Leased.class);
		if (leased == null && specific != method) {
			leased = AnnotatedElementUtils.findMergedAnnotation(method, Leased.class);
		}
		if (leased == null) {
			return null;
		}
		LeasedOperation operation = LeasedOperation.of(specific, leased, this.placeholders);
		LeasedOperation previous = this.operations.putIfAbsent(cacheKey, operation);
		return (previous != null) ? previous : operation;
	}

	/**
	 * Return the host that leased calls use, resolving it now if no call has yet.
	 * @return the host
	 */
	public LeaseHost getHost() {
		return template().getHost();
	}

	/**
	 * Stop the threads of the interceptor's own, if it was given no executor: a body
	 * already running completes.
	 */
	@Override
	public void close() {
		if (this.ownBodies != null) {
			this.ownBodies.close();
		}
	}

	// No lock: resolving the template may need the container's singleton lock, which a
	// thread making its own first leased call may hold.
	LeaseTemplate template() {
		LeaseTemplate template = this.template;
		if (template == null) {
			template = this.templateSupplier.get();
			Assert.state(template != null, "No LeaseTemplate to run leased calls with");
			this.template = template;
		}
		return template;
	}

}
