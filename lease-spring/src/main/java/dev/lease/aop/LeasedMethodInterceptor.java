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
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
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
import org.springframework.expression.BeanResolver;
import org.springframework.util.Assert;
import org.springframework.util.StringValueResolver;

import dev.lease.Lease;
import dev.lease.LeaseExpiredException;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.LeaseUnavailableException;
import dev.lease.NotHeld;
import dev.lease.ReentrantTakeException;
import dev.lease.ReleaseResult;
import dev.lease.Taken;
import dev.lease.Unavailable;
import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;

/**
 * Runs a {@link Leased @Leased} method under its lease: takes the key before the method
 * runs and releases it when the method completes, in {@code finally}. A release answered
 * {@link NotHeld} is an overrun: the work outran its term (Non-goal 11).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeasedMethodInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(LeasedMethodInterceptor.class);

	private final Supplier<LeaseHost> hostSupplier;

	private final String holderPrefix;

	private final OnOverrun onOverrun;

	private final @Nullable BeanResolver beans;

	private final @Nullable StringValueResolver placeholders;

	private final Map<AnnotatedElementKey, LeasedOperation> operations = new ConcurrentHashMap<>();

	private volatile @Nullable LeaseHost host;

	/**
	 * Create an interceptor.
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
		Assert.notNull(host, "'host' must not be null");
		Assert.hasText(holderPrefix, "'holderPrefix' must not be empty");
		Assert.notNull(onOverrun, "'onOverrun' must not be null");
		this.hostSupplier = host;
		this.holderPrefix = holderPrefix;
		this.onOverrun = onOverrun;
		this.beans = (beanFactory != null) ? new BeanFactoryResolver(beanFactory) : null;
		this.placeholders = (beanFactory instanceof ConfigurableBeanFactory configurable)
				? configurable::resolveEmbeddedValue : null;
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
		LeaseKey key = operation.key(root, invocation.getArguments(), this.beans);
		LeaseHolder holder = operation.holder(root, invocation.getArguments(), this.beans);
		if (holder == null) {
			holder = LeaseHolder.of(this.holderPrefix + "/" + freshId());
		}
		if (operation.kind() == ReturnKind.MONO || operation.kind() == ReturnKind.FLUX) {
			return ReactiveLeasedCalls.lease(this, operation, key, holder, invocation);
		}
		if (LeaseStack.holds(key)) {
			throw new ReentrantTakeException(key, holder);
		}
		Object attempt = take(operation, key, holder);
		if (!(attempt instanceof Lease lease)) {
			return unavailable(operation, key, (String) attempt);
		}
		return proceed(operation, lease, invocation);
	}

	private @Nullable Object proceed(LeasedOperation operation, Lease lease, MethodInvocation invocation)
			throws Throwable {
		Object result;
		LeaseStack.push(lease);
		try {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			LeaseStack.pop(lease);
			LeaseExpiredException overrun = release(operation, lease);
			if (overrun != null) {
				ex.addSuppressed(overrun);
			}
			throw ex;
		}
		LeaseStack.pop(lease);
		if (operation.kind() == ReturnKind.COMPLETION_STAGE && result instanceof CompletionStage<?> stage) {
			return releaseOnCompletion(operation, lease, stage);
		}
		LeaseExpiredException overrun = release(operation, lease);
		if (overrun != null) {
			throw overrun;
		}
		return result;
	}

	private Object releaseOnCompletion(LeasedOperation operation, Lease lease, CompletionStage<?> stage) {
		if (!operation.method().getReturnType().isAssignableFrom(CompletableFuture.class)) {
			// The declared type cannot carry a failure of ours: release, never fail it.
			stage.whenComplete((value, failure) -> release(operation, lease));
			return stage;
		}
		CompletableFuture<@Nullable Object> completed = new CompletableFuture<>();
		stage.whenComplete((value, failure) -> {
			LeaseExpiredException overrun = release(operation, lease);
			if (failure != null) {
				if (overrun != null) {
					failure.addSuppressed(overrun);
				}
				completed.completeExceptionally(failure);
			}
			else if (overrun != null) {
				completed.completeExceptionally(overrun);
			}
			else {
				completed.complete(value);
			}
		});
		return completed;
	}

	// Answers the grant, or why there is none. A take that failed at the host may still
	// have been granted (its request reached the host, its answer was lost): the grant is
	// given back at once rather than left standing until its instant with nobody using
	// it.
	Object take(LeasedOperation operation, LeaseKey key, LeaseHolder holder) {
		LeaseHost host = host();
		try {
			return takeOrExplain(host, operation, key, holder);
		}
		catch (LeaseHostException ex) {
			try {
				host.release(key, holder);
			}
			catch (RuntimeException releaseFailure) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
	}

	// A Taken whose instant already passed (a waiter handed the key while it stalled) is
	// not acquired: its term is spent.
	private Object takeOrExplain(LeaseHost host, LeasedOperation operation, LeaseKey key, LeaseHolder holder) {
		if (operation.mode() == LeaseMode.TRY_TAKE) {
			return (host.tryTake(key, holder, operation.duration()) instanceof Taken taken) ? taken.lease()
					: "it is held by another holder";
		}
		try {
			long started = System.nanoTime();
			Object result = host.take(key, holder, operation.duration());
			if (result instanceof Unavailable) {
				return "it stayed held for the whole arrival term";
			}
			Lease lease = ((Taken) result).lease();
			if (mayHavePassed(started, operation.duration()) && host.remaining(key, holder).isEmpty()) {
				return "it was handed over after its instant " + lease.expiresAt() + " had passed";
			}
			return lease;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			LeaseUnavailableException failure = new LeaseUnavailableException(key, "interrupted while waiting");
			failure.initCause(ex);
			throw failure;
		}
	}

	// A grant is made no earlier than the take was asked and runs for the whole duration,
	// so it can have passed by the time the answer arrives only if the take lasted at
	// least
	// the duration. Only then is the host asked (on its own clock) whether it still
	// stands;
	// the local monotonic clock merely decides whether to ask, with a margin of two.
	private static boolean mayHavePassed(long startedNanos, Duration duration) {
		long elapsed = System.nanoTime() - startedNanos;
		return elapsed >= duration.toNanos() / 2;
	}

	@Nullable Object unavailable(LeasedOperation operation, LeaseKey key, String reason) {
		if (operation.onUnavailable() == OnUnavailable.SKIP) {
			if (logger.isDebugEnabled()) {
				logger.debug(
						"Skipped " + operation.description() + ": lease on key '" + key + "' was not taken, " + reason);
			}
			return operation.skipped();
		}
		throw new LeaseUnavailableException(key, reason);
	}

	// Releases the grant; answers the exception to throw for an overrun, if any. A host
	// failure is logged, not thrown: the grant then ends at its instant.
	@Nullable LeaseExpiredException release(LeasedOperation operation, Lease lease) {
		ReleaseResult result;
		try {
			result = host().release(lease.key(), lease.holder());
		}
		catch (RuntimeException ex) {
			logger.warn("Release of the lease on key '" + lease.key() + "' after " + operation.description()
					+ " failed; the grant ends at its instant " + lease.expiresAt(), ex);
			return null;
		}
		if (result instanceof NotHeld) {
			logger
				.warn(operation.description() + " outran its lease: the grant on key '" + lease.key() + "' for holder '"
						+ lease.holder() + "' ended at " + lease.expiresAt() + " before the call completed. Choose a"
						+ " longer duration than " + operation.duration() + ", or shorter work");
			return (this.onOverrun == OnOverrun.FAIL) ? new LeaseExpiredException(lease) : null;
		}
		return null;
	}

	// A fresh holder needs to be unique, not secret: a random UUID without SecureRandom,
	// which would serialise every leased call on its lock.
	private static UUID freshId() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		long most = (random.nextLong() & 0xffffffffffff0fffL) | 0x0000000000004000L;
		long least = (random.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
		return new UUID(most, least);
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
		return host();
	}

	LeaseHost host() {
		LeaseHost host = this.host;
		if (host == null) {
			host = this.hostSupplier.get();
			Assert.state(host != null, "No LeaseHost to take leases on");
			this.host = host;
		}
		return host;
	}

}
