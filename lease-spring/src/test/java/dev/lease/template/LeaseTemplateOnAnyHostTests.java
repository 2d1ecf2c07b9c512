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
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.lease.LeaseHost;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;

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

}
