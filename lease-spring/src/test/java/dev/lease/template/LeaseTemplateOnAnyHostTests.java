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

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.lease.AsyncLeaseHost;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.annotation.LeaseMode;
import dev.lease.aop.RecordingLeaseHost;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A {@link LeaseTemplate} works on any {@link LeaseHost}, also a proxy or a mock whose
 * {@link LeaseHost#async()} answers nothing or refuses: such a host's non-blocking
 * questions are answered on threads.
 *
 * @author Lease contributors
 */
class LeaseTemplateOnAnyHostTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private final InMemoryLeaseHost target = new InMemoryLeaseHost();

	@AfterEach
	void close() {
		this.target.close();
	}

	@ParameterizedTest(name = "async() {0}")
	@ValueSource(strings = { "refuses", "answers null" })
	void templateWorksOnAHostWithoutAnAsynchronousView(String async) throws Exception {
		LeaseHost proxy = (LeaseHost) Proxy.newProxyInstance(getClass().getClassLoader(),
				new Class<?>[] { LeaseHost.class }, (instance, method, arguments) -> {
					if (method.getName().equals("async")) {
						if (async.equals("refuses")) {
							throw new UnsupportedOperationException("async");
						}
						return null;
					}
					try {
						return method.invoke(this.target, arguments);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
				});
		try (LeaseTemplate template = new LeaseTemplate(proxy)) {
			String blocking = template.call(LeaseRequest.of("blocking", TERM), (lease) -> lease.key().toString());
			assertThat(blocking).isEqualTo("blocking");
			CompletableFuture<String> answer = template.callAsync(LeaseRequest.of("non-blocking", TERM),
					(lease) -> CompletableFuture.completedFuture(lease.key().toString()));
			assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo("non-blocking");
		}
	}

	@Test
	@DisplayName("Invariant 5: a non-blocking view that throws instead of failing its future fails the take's "
			+ "future, and the grant it may have made is given back")
	void takeAsyncOnAViewThatThrowsFailsTheFutureAndGivesTheGrantBack() {
		AsyncLeaseHost view = this.target.async();
		AsyncLeaseHost throwing = (AsyncLeaseHost) Proxy.newProxyInstance(getClass().getClassLoader(),
				new Class<?>[] { AsyncLeaseHost.class }, (instance, method, arguments) -> {
					Object answer = method.invoke(view, arguments);
					if (method.getName().equals("take")) {
						((CompletableFuture<?>) answer).join();
						throw new LeaseHostException("the connection closed before the answer arrived");
					}
					return answer;
				});
		LeaseHost host = new RecordingLeaseHost(this.target) {

			@Override
			public AsyncLeaseHost async() {
				return throwing;
			}

		};
		try (LeaseTemplate template = new LeaseTemplate(host)) {
			CompletableFuture<?> taking = template.takeAsync(LeaseRequest.of("thrown", TERM), LeaseMode.TAKE);
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> taking.get(30, TimeUnit.SECONDS))
				.withCauseInstanceOf(LeaseHostException.class);
		}
		assertThat(this.target.grants(100)).noneMatch((lease) -> lease.key().equals(LeaseKey.of("thrown")));
	}

}
