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

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.util.context.Context;

import dev.lease.Lease;
import dev.lease.template.LeaseStack;

/**
 * The publisher of a leased reactive call, with its grant bound to the thread for each
 * call into it: subscribing, requesting and cancelling. A publisher that makes its values
 * on the thread that asks for them (a {@code map} over {@code just}, {@code range} or
 * {@code fromIterable}, a {@code fromCallable}) runs its operators there, so that a
 * {@code @Fenced} call among them finds the grant; what runs on a thread of its own
 * (after {@code publishOn}, {@code subscribeOn}, a timer or I/O) does not have it bound.
 *
 * @param <T> the type of the values
 * @author Lease contributors
 */
final class LeaseBoundFlux<T> extends Flux<T> {

	private final Publisher<T> source;

	private final Lease lease;

	LeaseBoundFlux(Publisher<T> source, Lease lease) {
		this.source = source;
		this.lease = lease;
	}

	@Override
	public void subscribe(CoreSubscriber<? super T> actual) {
		try (LeaseStack.Scope scope = LeaseStack.bind(this.lease)) {
			this.source.subscribe(new Bound<>(actual, this.lease));
		}
	}

	private static final class Bound<T> implements CoreSubscriber<T>, Subscription {

		private final CoreSubscriber<? super T> actual;

		private final Lease lease;

		// Set before the subscriber is handed this subscription, so before it can request
		// or cancel.
		private volatile Subscription upstream;

		Bound(CoreSubscriber<? super T> actual, Lease lease) {
			this.actual = actual;
			this.lease = lease;
		}

		@Override
		public Context currentContext() {
			return this.actual.currentContext();
		}

		@Override
		public void onSubscribe(Subscription subscription) {
			this.upstream = subscription;
			this.actual.onSubscribe(this);
		}

		@Override
		public void onNext(T value) {
			this.actual.onNext(value);
		}

		@Override
		public void onError(Throwable failure) {
			this.actual.onError(failure);
		}

		@Override
		public void onComplete() {
			this.actual.onComplete();
		}

		@Override
		public void request(long n) {
			try (LeaseStack.Scope scope = LeaseStack.bind(this.lease)) {
				this.upstream.request(n);
			}
		}

		@Override
		public void cancel() {
			try (LeaseStack.Scope scope = LeaseStack.bind(this.lease)) {
				this.upstream.cancel();
			}
		}

	}

}
